package rating

import "sort"

// Result is how a finished game ended, as its final view tells it.
type Result struct {
	// Winner is the winning seat (-1: none, a game with no winner: everyone ties).
	Winner int
	// Team is each seat's partnership (nil: none, each seat plays for itself).
	Team []int
	// Scores are the seats' final scores (nil: the variant keeps none), and TeamScores the
	// partnerships' by team id (nil: none). LowWins: the lowest score is best (Hearts).
	Scores     []*int
	TeamScores map[int]int
	LowWins    bool
}

// Places turns a result into a place per seat (1 first; equal places a tie) and each seat's
// team: the winner's side first, the other sides after it by their score (the side's total when
// the variant scores partnerships, the best of its seats' otherwise), tied where the scores are
// equal or where the variant keeps none.
func Places(seats int, res Result) (places, teams []int) {
	teams = make([]int, seats)
	for s := range teams {
		teams[s] = s
		if s < len(res.Team) {
			teams[s] = res.Team[s]
		}
	}
	type side struct {
		team   int
		won    bool
		scored bool
		score  int
	}
	var order []*side
	byTeam := map[int]*side{}
	for s := 0; s < seats; s++ {
		sd := byTeam[teams[s]]
		if sd == nil {
			sd = &side{team: teams[s]}
			byTeam[teams[s]] = sd
			order = append(order, sd)
		}
		if s == res.Winner {
			sd.won = true
		}
		if ts, ok := res.TeamScores[teams[s]]; ok {
			sd.scored, sd.score = true, ts
		} else if s < len(res.Scores) && res.Scores[s] != nil {
			v := *res.Scores[s]
			if !sd.scored || better(v, sd.score, res.LowWins) {
				sd.scored, sd.score = true, v
			}
		}
	}
	// key orders sides: the winner's, then by score (those with none after those with one).
	less := func(a, b *side) bool {
		if a.won != b.won {
			return a.won
		}
		if a.scored != b.scored {
			return a.scored
		}
		return a.scored && better(a.score, b.score, res.LowWins)
	}
	sorted := append([]*side(nil), order...)
	sort.SliceStable(sorted, func(i, j int) bool { return less(sorted[i], sorted[j]) })
	place := map[int]int{}
	for i, sd := range sorted {
		if i > 0 && !less(sorted[i-1], sd) {
			place[sd.team] = place[sorted[i-1].team]
			continue
		}
		place[sd.team] = i + 1
	}
	places = make([]int, seats)
	for s := range places {
		places[s] = place[teams[s]]
	}
	return places, teams
}

func better(a, b int, lowWins bool) bool {
	if lowWins {
		return a < b
	}
	return a > b
}
