-- +goose Up
-- A seat's own name plate look, for the seats of a pass-the-device room (one account, several
-- players): empty means the account's look.
ALTER TABLE members ADD COLUMN avatar TEXT NOT NULL DEFAULT '';
ALTER TABLE members ADD COLUMN colour TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE members DROP COLUMN colour;
ALTER TABLE members DROP COLUMN avatar;
