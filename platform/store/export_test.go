package store

import (
	"context"

	"gorm.io/gorm"
)

// HoldCommitter has the committer start a transaction and hold it (on SQLite with the write lock)
// until release is closed; it returns once the transaction has begun, and the held write's result
// comes on the returned channel.
func (s *Store) HoldCommitter(release <-chan struct{}) <-chan error {
	held, res := make(chan struct{}), make(chan error, 1)
	go func() {
		res <- s.write(context.Background(), func(tx *gorm.DB) error {
			close(held)
			<-release
			return tx.Exec("SELECT 1").Error
		})
	}()
	<-held
	return res
}

// Queued is the number of requests waiting for the committer.
func (s *Store) Queued() int { return len(s.commits.queue) + len(s.commits.others) }
