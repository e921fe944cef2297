package room

import (
	"cardhouse/platform/store"
	"cardhouse/sdk"
)

// Between two rounds, or once a game is over, a seated player may ask the host for the next one
// (the summary's Rematch or Next round): the ask shows on the player's member (wants_next) to
// everyone in the room, the host included, until the host deals. Asks are kept in memory: after
// a restart a player asks again.

// askNext records uid's ask for the next round or game.
func (r *Room) askNext(uid int64) error {
	if r.game == nil {
		return errf(KindConflict, "no_game", "no game has been played yet; the host deals to start one")
	}
	if r.live() && r.status.Phase != sdk.PhaseRoundOver {
		return errf(KindConflict, "game_running", "a round is being played; ask when it is over")
	}
	if r.isHost(uid) {
		return errf(KindConflict, "host_deals", "you are the host: deal the next round or game yourself")
	}
	var asked []*store.Member
	for _, m := range r.members {
		if m.UserID != nil && *m.UserID == uid && m.Role == store.MemberPlayer && m.Seat >= 0 && !r.asks[m.ID] {
			r.asks[m.ID] = true
			asked = append(asked, m)
		}
	}
	if len(asked) == 0 && !r.askedBy(uid) {
		return errf(KindForbidden, "not_player", "only the players at the table ask for the next round or game")
	}
	r.noteMembers(asked...)
	return nil
}

// askedBy reports whether uid has asked already (asking again is no error).
func (r *Room) askedBy(uid int64) bool {
	for _, m := range r.members {
		if m.UserID != nil && *m.UserID == uid && r.asks[m.ID] {
			return true
		}
	}
	return false
}

// clearAsks forgets every ask: the host has dealt.
func (r *Room) clearAsks() {
	var cleared []*store.Member
	for _, m := range r.members {
		if r.asks[m.ID] {
			cleared = append(cleared, m)
		}
	}
	clear(r.asks)
	if len(cleared) > 0 {
		r.noteMembers(cleared...)
	}
}
