-- +goose Up
-- The identity of the cluster whose nodes share this database (docs/operations.md): one row, a
-- random id written by the first node that asks (store.ClusterID). The nodes put it in front of
-- every subject they use on the broker, so clusters (and tests) sharing one broker never hear
-- each other's routing or events.
CREATE TABLE cluster_identity (
    one INTEGER NOT NULL PRIMARY KEY CHECK (one = 1),
    id  TEXT NOT NULL
);

-- +goose Down
DROP TABLE cluster_identity;
