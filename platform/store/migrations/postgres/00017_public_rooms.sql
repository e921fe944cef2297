-- +goose Up
-- Quick play (issue 32): a private room is reached by its code only and is never listed; a quick
-- room was opened by quick play and starts by itself when full or after a short wait, bots taking
-- the empty seats.
ALTER TABLE rooms ADD COLUMN private BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE rooms ADD COLUMN quick BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE rooms DROP COLUMN quick;
ALTER TABLE rooms DROP COLUMN private;
