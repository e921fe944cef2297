-- +goose Up
-- Moderation (issue 23): who a room keeps out after a kick (until a time, or for good: a room
-- ban, until the host lifts it), and when each account and each session was last seen.
CREATE TABLE room_bans (
    room_id    BIGINT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at TIMESTAMPTZ,
    name       TEXT NOT NULL DEFAULT '',
    reason     TEXT NOT NULL DEFAULT '',
    guest_key_hash TEXT NOT NULL DEFAULT '',
    by_id      BIGINT,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (room_id, user_id)
);

ALTER TABLE users ADD COLUMN last_seen_at TIMESTAMPTZ;
ALTER TABLE sessions ADD COLUMN last_seen_at TIMESTAMPTZ;

-- +goose Down
ALTER TABLE sessions DROP COLUMN last_seen_at;
ALTER TABLE users DROP COLUMN last_seen_at;
DROP TABLE room_bans;
