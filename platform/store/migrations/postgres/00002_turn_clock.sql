-- +goose Up
-- An optional turn clock per room: seconds a seated human has to act before a bot acts for them.
ALTER TABLE rooms ADD COLUMN turn_seconds BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE rooms DROP COLUMN turn_seconds;
