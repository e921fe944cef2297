package room

import "cardhouse/platform/store"

// look is a user's avatar and colour as the room last saw them.
type look struct{ avatar, colour string }

// noteLook remembers u's look for the members list (MemberInfo.Avatar, Colour). It runs on the
// actor when u joins or connects, and when u changes their look (Manager.NoteLook).
func (r *Room) noteLook(u *store.User) {
	if u.Avatar == "" && u.Colour == "" {
		delete(r.looks, u.ID)
		return
	}
	r.looks[u.ID] = look{avatar: u.Avatar, colour: u.Colour}
}
