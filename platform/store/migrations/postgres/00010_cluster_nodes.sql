-- +goose Up
-- The nodes of a cluster (docs/operations.md): each running node writes its row when it starts
-- and every third of its lease (--lease, kept in lease_ms) while it runs, and deletes it when it
-- stops gracefully; times are Unix milliseconds of the database's clock. The admin area's nodes
-- page reads it, with the live leases of room_leases for the rooms each node owns.
CREATE TABLE cluster_nodes (
    node       TEXT NOT NULL PRIMARY KEY,
    started_ms BIGINT NOT NULL,
    seen_ms    BIGINT NOT NULL,
    lease_ms   BIGINT NOT NULL
);

-- +goose Down
DROP TABLE cluster_nodes;
