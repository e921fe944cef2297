package room

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"cardhouse/platform/rating"
	"cardhouse/platform/store"
)

// seatUsers is the user dealt each seat (0: a bot), stored with the game (Game.SeatUsers) so that
// its end knows who played it even after a player left and a bot took the seat.
func seatUsers(seated []*store.Member) []int64 {
	out := make([]int64, len(seated))
	for i, m := range seated {
		if isHuman(m) {
			out[i] = *m.UserID
		}
	}
	return out
}

// resultView is the part of a seat's final view that says how the game ended.
type resultView struct {
	Winner  int `json:"winner"`
	Players []struct {
		Seat  int  `json:"seat"`
		Score *int `json:"score"`
		Team  *int `json:"team"`
	} `json:"players"`
	Teams []struct {
		ID    int `json:"id"`
		Score int `json:"score"`
	} `json:"teams"`
	LowWins bool `json:"low_wins"`
}

// recordFinished records the results of the game that just ended (store.RecordFinished: places,
// and ratings when two humans or more played an online game). It runs on the actor once per
// finish on this node; the store writes a game's results once, so a finish seen again (a room
// adopted by another node that replays the end) changes nothing. A failure is logged: the game
// is over either way.
func (r *Room) recordFinished() {
	if r.room.Mode != store.ModeOnline || r.game == nil || r.game.SeatUsers == "" {
		return // pass-the-device seats share one account; a game against bots rates nobody
	}
	var users []int64
	if err := json.Unmarshal([]byte(r.game.SeatUsers), &users); err != nil || len(users) != r.game.Seats {
		r.log.Error("reading the seats' players of a finished game", "game", r.game.Number, "err", err)
		return
	}
	humans := 0
	for _, u := range users {
		if u != 0 {
			humans++
		}
	}
	if humans == 0 {
		return
	}
	var v resultView
	if r.materialise() && len(r.views) > 0 {
		if err := json.Unmarshal(r.views[0], &v); err != nil {
			r.log.Error("reading the final view", "err", err)
			v = resultView{Winner: r.status.Winner}
		}
	} else {
		v.Winner = r.status.Winner
	}
	res := rating.Result{Winner: v.Winner, LowWins: v.LowWins, Scores: make([]*int, r.game.Seats)}
	teamed := false
	team := make([]int, r.game.Seats)
	for s := range team {
		team[s] = s
	}
	for _, p := range v.Players {
		if p.Seat < 0 || p.Seat >= r.game.Seats {
			continue
		}
		res.Scores[p.Seat] = p.Score
		if p.Team != nil {
			team[p.Seat], teamed = r.game.Seats+*p.Team, true // apart from the seat numbers
		}
	}
	if teamed {
		res.Team = team
		if len(v.Teams) > 0 {
			res.TeamScores = map[int]int{}
			for _, t := range v.Teams {
				res.TeamScores[r.game.Seats+t.ID] = t.Score
			}
		}
	}
	places, teams := rating.Places(r.game.Seats, res)
	f := store.Finished{GameID: r.game.ID, Ruleset: r.room.Ruleset, EndedAt: r.now().UTC()}
	if r.game.EndedAt != nil {
		f.EndedAt = *r.game.EndedAt
	}
	for s, u := range users {
		left := false
		if u != 0 {
			m := r.seatMember(s)
			left = m == nil || m.UserID == nil || *m.UserID != u || m.Covered
		}
		f.Seats = append(f.Seats, store.FinishedSeat{UserID: u, Team: teams[s], Place: places[s], Left: left})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := r.cfg.Store.RecordFinished(ctx, f); err != nil && !errors.Is(err, store.ErrRecorded) {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("recording a finished game's results", "game", r.game.Number, "err", err)
	}
}
