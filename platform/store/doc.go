// Package store owns Cardhouse's persistent data: accounts, sessions, rooms, members, games, the
// action log and chat, kept with GORM over embedded SQLite (pure Go, WAL) or PostgreSQL.
//
// Start reading at [Open], which picks the database from a DSN and brings its schema up to date
// with the goose migrations embedded under migrations/<dialect>/ (add a new numbered file per
// change; never edit a released one). The models are in models.go; every write that must be atomic
// (an accepted action, with the state it produced when that is due, P-7) is one method here that
// runs one transaction. A game's row holds a recent state (Game.Seq actions in) and the log every
// action: commit.go says why and how a game is rebuilt from the two.
// houserules.go keeps house-rule scripts, their reviewed versions, the rules rooms enable and the
// versions each game is pinned to (ApproveHouseRuleVersion and friends are the admins' decisions).
package store
