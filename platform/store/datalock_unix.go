//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// lockData locks the SQLite database at path through the file path+".lock" (never removed): every
// Store holds a shared lock while it is open (a server, `cardhouse admin`), and Restore an
// exclusive one, so a restore never replaces a file a server has open, and no server opens a file
// being restored. Neither waits: a lock held the other way is an error saying so.
func lockData(path string, exclusive bool) (unlock func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("locking the database %s: %w", path, err)
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if exclusive {
			return nil, fmt.Errorf("the database %s is open in a running server or `cardhouse admin` (it holds %s.lock): stop it first", path, path)
		}
		return nil, fmt.Errorf("the database %s is being restored (`cardhouse restore` holds %s.lock): start when it is done", path, path)
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
