-- +goose Up
-- Who runs each room's actor in a cluster (docs/operations.md): the node holding the lease, the
-- lease's fencing epoch (raised each time another node takes the room; every commit of the room
-- checks it in its own transaction) and when it expires, in Unix milliseconds of the database's
-- clock, so that the nodes' own clocks never decide who owns a room.
CREATE TABLE room_leases (
    room_id    INTEGER NOT NULL PRIMARY KEY REFERENCES rooms(id) ON DELETE CASCADE,
    node       TEXT NOT NULL,
    epoch      INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);

-- +goose Down
DROP TABLE room_leases;
