-- +goose Up
-- The SHA-256 of the guest key of the browser a guest was made in (the cardhouse_guest cookie):
-- a guest's dropped seat comes back silently only to a guest made in the same browser.
ALTER TABLE users ADD COLUMN guest_key_hash TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN guest_key_hash;
