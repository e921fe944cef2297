-- +goose Up
-- The language an account chose for the site ("fr", "ar"; docs: web/static/js/i18n.js): empty
-- means none chosen (the browser's languages then decide). Signing in applies it.
ALTER TABLE users ADD COLUMN locale TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE users DROP COLUMN locale;
