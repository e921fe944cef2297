package rating

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// The expected values below are the published test values of openskill.js (philihp/openskill.js,
// a port of the paper's Plackett-Luce algorithm with the same defaults):
//   - pl: src/models/__tests__/plackett-luce.test.js at commit
//     23e6335a2802cc15e181165351660f820bb5559c ("2p FFA" ... "3 teams different sized players");
//   - rt: src/__tests__/rate.test.js at commit 000254749e04959d52a01468049e330bf1c2ff4d (ranks,
//     reordered ranks, ties).
// They are written to 15-17 significant digits there; we compare to 1e-9.

func r(mu, sigma float64) Rating { return Rating{mu, sigma} }

var fresh = Default().New()

func TestRatePublished(t *testing.T) {
	t.Parallel()
	a1, b1, c1 := r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217)
	w1, x1, y1, z1 := r(15, 25.0/3), r(20, 25.0/3), r(25, 25.0/3), r(30, 25.0/3)
	tests := []struct {
		name  string
		teams [][]Rating
		ranks []int
		want  [][]Rating
	}{
		{"pl 2p FFA", [][]Rating{{fresh}, {fresh}}, nil, [][]Rating{
			{r(27.63523138347365, 8.065506316323548)},
			{r(22.36476861652635, 8.065506316323548)}}},
		{"pl 3p FFA", [][]Rating{{fresh}, {fresh}, {fresh}}, nil, [][]Rating{
			{r(27.868876552746237, 8.204837030780652)},
			{r(25.717219138186557, 8.057829747583874)},
			{r(21.413904309067206, 8.057829747583874)}}},
		{"pl 4p FFA", [][]Rating{{fresh}, {fresh}, {fresh}, {fresh}}, nil, [][]Rating{
			{r(27.795084971874736, 8.263160757613477)},
			{r(26.552824984374855, 8.179213704945203)},
			{r(24.68943500312503, 8.083731307186588)},
			{r(20.96265504062538, 8.083731307186588)}}},
		{"pl 5p FFA", [][]Rating{{fresh}, {fresh}, {fresh}, {fresh}, {fresh}}, nil, [][]Rating{
			{r(27.666666666666668, 8.290556877154474)},
			{r(26.833333333333332, 8.240145629781066)},
			{r(25.72222222222222, 8.179996679645559)},
			{r(24.055555555555557, 8.111796013701358)},
			{r(20.72222222222222, 8.111796013701358)}}},
		{"pl 3 teams different sized players", [][]Rating{{fresh, fresh, fresh}, {fresh}, {fresh, fresh}}, nil, [][]Rating{
			{r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456)},
			{r(27.21366020491262, 8.274321317985242)},
			{r(21.84646897330287, 8.213058173195341), r(21.84646897330287, 8.213058173195341)}}},
		{"rt placket-luce by default", [][]Rating{{a1}, {b1}, {c1}, {fresh}}, nil, [][]Rating{
			{r(30.209971908310553, 4.764898977359521)},
			{r(27.64460833689499, 4.882789305097372)},
			{r(17.403586731283518, 6.100723440599442)},
			{r(19.214790707434826, 7.8542613981643985)}}},
		{"rt reverses rank", [][]Rating{{fresh}, {fresh}}, []int{2, 1}, [][]Rating{
			{r(22.36476861652635, 8.065506316323548)},
			{r(27.63523138347365, 8.065506316323548)}}},
		{"rt accepts a misordered rank ordering", [][]Rating{{fresh}, {fresh}, {fresh}, {fresh}}, []int{2, 1, 4, 3}, [][]Rating{
			{r(26.552824984374855, 8.179213704945203)},
			{r(27.795084971874736, 8.263160757613477)},
			{r(20.96265504062538, 8.083731307186588)},
			{r(24.68943500312503, 8.083731307186588)}}},
		{"rt accepts a rate ordering", [][]Rating{{w1}, {x1}, {y1}, {z1}}, []int{1, 3, 4, 2}, [][]Rating{
			{r(18.13094482387197, 8.283124738447958)},
			{r(20.40517319790051, 8.107463101775272)},
			{r(20.65608164139383, 8.082178279446465)},
			{r(30.80780033683369, 8.154697408620104)}}},
		{"rt accepts teams in rating order", [][]Rating{{a1, fresh}, {b1, fresh}, {c1, fresh}}, []int{3, 1, 2}, [][]Rating{
			{r(27.857928218465247, 4.743791738484319), r(20.979038689398703, 8.129445198549202)},
			{r(27.99071775460834, 4.901007097140011), r(27.341134074194173, 8.231039243636156)},
			{r(17.60695098907354, 6.140737155130899), r(26.679827236407125, 8.148750467726549)}}},
		{"rt four-way-tie with newbies", [][]Rating{{fresh}, {fresh}, {fresh}, {fresh}}, []int{1, 1, 1, 1}, [][]Rating{
			{r(25, 8.263160757613477)}, {r(25, 8.263160757613477)}, {r(25, 8.263160757613477)}, {r(25, 8.263160757613477)}}},
		{"rt accepts a score instead of rank (all tied)", [][]Rating{{fresh}, {fresh}, {fresh}}, []int{1, 1, 1}, [][]Rating{
			{r(25, 8.204837030780652)}, {r(25, 8.204837030780652)}, {r(25, 8.204837030780652)}}},
		{"rt allows ties", [][]Rating{{r(10, 8)}, {r(5, 10)}, {r(0, 12)}}, []int{1, 2, 2}, [][]Rating{
			{r(11.942833056030613, 7.926463661123746)},
			{r(2.938193791485662, 9.65347573412201)},
			{r(-1.4023734358082325, 11.323360667700934)}}},
		{"rt fixes orders of ties", [][]Rating{{w1}, {x1}, {y1}, {z1}}, []int{2, 4, 2, 1}, [][]Rating{
			{r(15.340046366255285, 8.21273604193863)},
			{r(18.007807436399276, 8.188629384105589)},
			{r(24.25804790911316, 8.166514496319483)},
			{r(32.39409828823228, 8.247276990243211)}}},
		{"solo game does not change rating", [][]Rating{{fresh}}, nil, [][]Rating{{fresh}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Default().Rate(tc.teams, tc.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.want {
				for j, w := range tc.want[i] {
					g := got[i][j]
					if math.Abs(g.Mu-w.Mu) > 1e-9 || math.Abs(g.Sigma-w.Sigma) > 1e-9 {
						t.Errorf("team %d player %d: got %+v, want %+v", i, j, g, w)
					}
				}
			}
		})
	}
}

func TestRateRefusesBadInput(t *testing.T) {
	t.Parallel()
	in := [][]Rating{{fresh}, {fresh}}
	for name, call := range map[string]func() ([][]Rating, error){
		"ranks count": func() ([][]Rating, error) { return Default().Rate(in, []int{1}) },
		"empty team":  func() ([][]Rating, error) { return Default().Rate([][]Rating{{fresh}, {}}, nil) },
		"zero sigma":  func() ([][]Rating, error) { return Default().Rate([][]Rating{{fresh}, {r(25, 0)}}, nil) },
		"NaN mean":    func() ([][]Rating, error) { return Default().Rate([][]Rating{{fresh}, {r(math.NaN(), 1)}}, nil) },
		"place zero": func() ([][]Rating, error) {
			return nil2(Default().RateGame([]Seat{{Account: 1}, {Account: 2, Place: 1}}, nil))
		},
		"account twice": func() ([][]Rating, error) {
			return nil2(Default().RateGame([]Seat{{Account: 1, Place: 1}, {Account: 1, Team: 1, Place: 2}}, nil))
		},
	} {
		if _, err := call(); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err %v, want ErrInput", name, err)
		}
	}
	if in[0][0] != fresh || in[1][0] != fresh {
		t.Error("Rate changed its input")
	}
}

func nil2(m map[int64]Rating, err error) ([][]Rating, error) { return nil, err }

// randomRating is a plausible rating: mean around 25, sigma between 1 and 8.33.
func randomRating(rng *rand.Rand) Rating {
	return r(10+30*rng.Float64(), 1+(25.0/3-1)*rng.Float64())
}

// TestPairMovesOpposite: in any game of two rated players (with any number of bots around them,
// anywhere), the one placed ahead gains and the other loses, and the bots move nothing: the result
// is the one of the same two players without bots.
func TestPairMovesOpposite(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	m := Default()
	for i := range 2000 {
		a, b := randomRating(rng), randomRating(rng)
		cur := map[int64]Rating{1: a, 2: b}
		seatsN := 2 + rng.IntN(5)
		places := rng.Perm(seatsN)
		var seats []Seat
		for s := range seatsN {
			seats = append(seats, Seat{Team: s, Place: places[s] + 1})
		}
		sa, sb := rng.IntN(seatsN), rng.IntN(seatsN-1)
		if sb >= sa {
			sb++
		}
		seats[sa].Account, seats[sb].Account = 1, 2
		got, err := m.RateGame(seats, cur)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 {
			t.Fatalf("case %d: rated %d accounts, want 2 (bots are not rated)", i, len(got))
		}
		winA := seats[sa].Place < seats[sb].Place
		da, db := got[1].Mu-a.Mu, got[2].Mu-b.Mu
		if winA && !(da > 0 && db < 0) || !winA && !(da < 0 && db > 0) {
			t.Fatalf("case %d: %v: a moved %g, b moved %g", i, seats, da, db)
		}
		alone, _ := m.RateGame([]Seat{{Account: 1, Place: seats[sa].Place}, {Account: 2, Team: 1, Place: seats[sb].Place}}, cur)
		if alone[1] != got[1] || alone[2] != got[2] {
			t.Fatalf("case %d: bots moved the ratings: %v with bots, %v without", i, got, alone)
		}
	}
}

// TestCoveredSeatMovesNothing: a player who left is rated last whatever the bot covering their
// seat went on to do, and the others as if that seat had finished last.
func TestCoveredSeatMovesNothing(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	m := Default()
	for i := range 500 {
		cur := map[int64]Rating{1: randomRating(rng), 2: randomRating(rng), 3: randomRating(rng)}
		coverPlace := 1 + rng.IntN(3)
		others := []int{1, 2, 3}
		others = append(others[:coverPlace-1], others[coverPlace:]...)
		seats := []Seat{{Account: 1, Team: 0, Place: others[0]}, {Account: 2, Team: 1, Place: others[1]}, {Account: 3, Team: 2, Place: coverPlace, Left: true}}
		got, err := m.RateGame(seats, cur)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := m.RateGame([]Seat{{Account: 1, Team: 0, Place: 1}, {Account: 2, Team: 1, Place: 2}, {Account: 3, Team: 2, Place: 3}}, cur)
		for id := range want {
			if got[id] != want[id] {
				t.Fatalf("case %d (bot for the leaver placed %d): account %d got %v, want %v", i, coverPlace, id, got[id], want[id])
			}
		}
		if !(got[3].Mu < cur[3].Mu) {
			t.Fatalf("case %d: the leaver's mean went from %g to %g", i, cur[3].Mu, got[3].Mu)
		}
	}
}

// TestPartnersRateAsTeam: Spades-like partnerships (seats 0+2 against 1+3) rate as two teams of
// two, as Rate does for the same teams, and partners move the same way.
func TestPartnersRateAsTeam(t *testing.T) {
	t.Parallel()
	m := Default()
	cur := map[int64]Rating{1: r(30, 5), 2: r(22, 7), 3: r(25, 6), 4: r(27, 4)}
	seats := []Seat{{Account: 1, Team: 0, Place: 2}, {Account: 2, Team: 1, Place: 1}, {Account: 3, Team: 0, Place: 2}, {Account: 4, Team: 1, Place: 1}}
	got, err := m.RateGame(seats, cur)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.Rate([][]Rating{{cur[2], cur[4]}, {cur[1], cur[3]}}, nil)
	if got[2] != want[0][0] || got[4] != want[0][1] || got[1] != want[1][0] || got[3] != want[1][1] {
		t.Fatalf("partners not rated as teams: got %v, want %v", got, want)
	}
	for id := range cur {
		up := got[id].Mu > cur[id].Mu
		if up != (id == 2 || id == 4) {
			t.Errorf("account %d moved from %g to %g", id, cur[id].Mu, got[id].Mu)
		}
	}
	// Two partners alone against bots: one side, nothing to rate.
	solo, _ := m.RateGame([]Seat{{Account: 1, Team: 0, Place: 1}, {Team: 1, Place: 2}, {Account: 3, Team: 0, Place: 1}, {Team: 1, Place: 2}}, cur)
	if len(solo) != 0 {
		t.Errorf("partners against bots were rated: %v", solo)
	}
}

func TestPlaces(t *testing.T) {
	t.Parallel()
	p := func(v int) *int { return &v }
	tests := []struct {
		name  string
		seats int
		res   Result
		want  []int
	}{
		{"winner only", 4, Result{Winner: 2}, []int{2, 2, 1, 2}},
		{"by score", 4, Result{Winner: 1, Scores: []*int{p(10), p(50), p(30), p(10)}}, []int{3, 1, 2, 3}},
		{"low wins", 3, Result{Winner: 2, Scores: []*int{p(40), p(90), p(12)}, LowWins: true}, []int{2, 3, 1}},
		{"teams", 4, Result{Winner: 3, Team: []int{0, 1, 0, 1}, TeamScores: map[int]int{0: 420, 1: 510}}, []int{2, 1, 2, 1}},
		{"no winner", 2, Result{Winner: -1}, []int{1, 1}},
	}
	for _, tc := range tests {
		got, _ := Places(tc.seats, tc.res)
		for i := range tc.want {
			if got[i] != tc.want[i] {
				t.Errorf("%s: places %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}
