package rating

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Rating is a player's skill as a normal distribution: Mu the mean, Sigma its standard deviation
// (how unsure the model still is).
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is the conservative skill shown and ranked by: Mu - 3*Sigma, which a new player starts
// at 0 with and which rises as their games make the model surer (the leaderboard orders by it).
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Model is the Weng-Lin Plackett-Luce model with its parameters (Weng & Lin 2011, Algorithm 4;
// the defaults are those of the paper's experiments and of the OpenSkill libraries).
type Model struct {
	// Mu and Sigma are a new player's rating.
	Mu, Sigma float64
	// Beta is the spread of one game's performance around a player's skill.
	Beta float64
	// Kappa is the least factor a variance is multiplied by in one update, so that Sigma never
	// reaches zero (the paper's kappa, 0.0001).
	Kappa float64
}

// Default is the model with mu 25, sigma 25/3, beta sigma/2 and kappa 0.0001.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001}
}

// New returns a new player's rating.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// ErrInput is wrapped by Rate's errors about its input (nothing is rated then).
var ErrInput = errors.New("rating: bad input")

// Rate updates the ratings of the players of one game. teams[i] are the ratings of team i's
// players; ranks[i] is team i's place (1 is first; equal ranks are a tie; nil: the teams are in
// the order they finished, no ties). It returns new ratings in the same shape and changes nothing
// it was given. A game of fewer than two teams changes nobody.
func (m Model) Rate(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if ranks != nil && len(ranks) != len(teams) {
		return nil, fmt.Errorf("%w: %d ranks for %d teams", ErrInput, len(ranks), len(teams))
	}
	out := make([][]Rating, len(teams))
	for i, t := range teams {
		if len(t) == 0 {
			return nil, fmt.Errorf("%w: team %d has no player", ErrInput, i)
		}
		for j, r := range t {
			if !(r.Sigma > 0) || math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || math.IsInf(r.Sigma, 0) {
				return nil, fmt.Errorf("%w: team %d player %d has rating %v", ErrInput, i, j, r)
			}
		}
		out[i] = append([]Rating(nil), t...)
	}
	if len(teams) < 2 {
		return out, nil
	}
	rank := make([]int, len(teams))
	for i := range rank {
		rank[i] = i + 1
		if ranks != nil {
			rank[i] = ranks[i]
		}
	}

	// Team strengths: the sums of the players' means and variances (the paper's section 3.5).
	mu := make([]float64, len(teams))
	sigmaSq := make([]float64, len(teams))
	csq := 0.0
	for i, t := range teams {
		for _, r := range t {
			mu[i] += r.Mu
			sigmaSq[i] += r.Sigma * r.Sigma
		}
		csq += sigmaSq[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(csq)

	// For each team q: sumQ[q] is the sum of exp(mu/c) over the teams that did not finish ahead
	// of q (the Plackett-Luce choice set at q's place), a[q] the number of teams tied with q.
	sumQ := make([]float64, len(teams))
	a := make([]int, len(teams))
	for q := range teams {
		for i := range teams {
			if rank[i] >= rank[q] {
				sumQ[q] += math.Exp(mu[i] / c)
			}
			if rank[i] == rank[q] {
				a[q]++
			}
		}
	}

	for i := range teams {
		e := math.Exp(mu[i] / c)
		omega, delta := 0.0, 0.0
		for q := range teams {
			if rank[q] > rank[i] {
				continue
			}
			p := e / sumQ[q]
			if q == i {
				omega += (1 - p) / float64(a[q])
			} else {
				omega -= p / float64(a[q])
			}
			delta += p * (1 - p) / float64(a[q])
		}
		gamma := math.Sqrt(sigmaSq[i]) / c
		omega *= sigmaSq[i] / c
		delta *= gamma * sigmaSq[i] / (c * c)
		for j, r := range teams[i] {
			share := r.Sigma * r.Sigma / sigmaSq[i]
			out[i][j] = Rating{
				Mu:    r.Mu + share*omega,
				Sigma: r.Sigma * math.Sqrt(math.Max(1-share*delta, m.Kappa)),
			}
		}
	}
	return out, nil
}

// Seat is one seat of a finished game as rating sees it.
type Seat struct {
	// Account is the registered account that played the seat; 0 for a bot or a guest, who are
	// not rated and take no part in the ranking of those who are.
	Account int64
	// Team is the seat's partnership: seats with the same Team are rated as one team. In a
	// game without partnerships give each seat its own (its seat number).
	Team int
	// Place is where the seat's team finished: 1 first, equal places a tie.
	Place int
	// Left says the player left the game before its end (a bot covered the seat to the end): it
	// counts as a loss for them, whatever the seat's bot went on to do.
	Left bool
}

// RateGame rates the registered players of one finished game. current holds each account's
// rating before it (an account missing from it starts at m.New()). Accounts that played as
// partners (the same Team) are rated as one team; a player who left is rated alone, last. Bots
// and guests move nothing. It returns the new rating of each account rated, or an empty map when
// fewer than two rated sides took part.
func (m Model) RateGame(seats []Seat, current map[int64]Rating) (map[int64]Rating, error) {
	type side struct {
		place    int
		accounts []int64
	}
	last := 0
	for _, s := range seats {
		if s.Place < 1 {
			return nil, fmt.Errorf("%w: place %d", ErrInput, s.Place)
		}
		last = max(last, s.Place)
	}
	seen := map[int64]bool{}
	var sides []*side
	byTeam := map[int]*side{}
	var leavers []int64
	for _, s := range seats {
		if s.Account == 0 {
			continue
		}
		if seen[s.Account] {
			return nil, fmt.Errorf("%w: account %d holds two seats", ErrInput, s.Account)
		}
		seen[s.Account] = true
		if s.Left {
			leavers = append(leavers, s.Account)
			continue
		}
		sd := byTeam[s.Team]
		if sd == nil {
			sd = &side{place: s.Place}
			byTeam[s.Team] = sd
			sides = append(sides, sd)
		}
		sd.accounts = append(sd.accounts, s.Account)
	}
	// Leavers tie for a place below everyone who stayed.
	for _, id := range leavers {
		sides = append(sides, &side{place: last + 1, accounts: []int64{id}})
	}
	out := map[int64]Rating{}
	if len(sides) < 2 {
		return out, nil
	}
	sort.SliceStable(sides, func(i, j int) bool { return sides[i].place < sides[j].place })
	teams := make([][]Rating, len(sides))
	ranks := make([]int, len(sides))
	for i, sd := range sides {
		ranks[i] = sd.place
		for _, id := range sd.accounts {
			r, ok := current[id]
			if !ok {
				r = m.New()
			}
			teams[i] = append(teams[i], r)
		}
	}
	rated, err := m.Rate(teams, ranks)
	if err != nil {
		return nil, err
	}
	for i, sd := range sides {
		for j, id := range sd.accounts {
			out[id] = rated[i][j]
		}
	}
	return out, nil
}
