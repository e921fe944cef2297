package simple_test

import (
	"context"
	"fmt"
	"strconv"

	"cardhouse/sdk"
	"cardhouse/sdk/simple"
)

// fish is a game of Go Fish: the package keeps its cards and turn, and it needs nothing more.
type fish = simple.State[struct{}]

// goFish is the whole variant: simple.New(goFish) is its sdk.Ruleset, bot included.
var goFish = simple.Game[struct{}]{
	ID: "gofish", Name: "Go Fish", Summary: "Ask for ranks, make books of four.",
	Rules: "Ask another player for a rank you hold: they give you every card of it and you go again; " +
		"if they have none, **go fish**: draw one, and go again if it is that rank. Four of a kind is a " +
		"book, laid down at once. An empty hand draws a card (or sits out). After 13 books, most wins.",
	MinSeats: 2, MaxSeats: 5, LaidLabel: "Book",
	EventTexts: map[string]string{
		"asked": "{seat} asked {target} for {rank}s", "gave": "{seat} gave {count} to {target}",
		"go_fish": "{seat} said: go fish!", "lucky": "{seat} fished the {rank} asked for",
		"book": "{seat} made a book of {rank}s",
	},
	// Seven cards each, five with four or more players; the rest is the stock.
	HandSize: func(seats int) int {
		if seats >= 4 {
			return 5
		}
		return 7
	},
	// A four of a kind dealt is a book at once.
	Setup: func(s *fish, _ sdk.Options) {
		for seat := range s.Seats {
			books(s, seat)
		}
	},
	// An empty hand draws one card when its turn begins; with no stock left it sits out.
	OnTurn: func(s *fish) {
		if len(s.Hands[s.Turn]) == 0 {
			s.Draw(s.Turn)
			books(s, s.Turn)
		}
	},
	Moves: []simple.Move[struct{}]{{
		Type: "ask", Label: "Ask",
		// Any card held names its rank; ask any other player who holds cards.
		Cards: func(s *fish, seat int) []sdk.Card { return s.Hands[seat] },
		Targets: func(s *fish, seat int) (others []int) {
			for i, h := range s.Hands {
				if i != seat && len(h) > 0 {
					others = append(others, i)
				}
			}
			return others
		},
		Do: func(s *fish, a sdk.Action) error {
			rank, from := a.Cards[0].Rank(), *a.Target
			words := map[string]string{"target": strconv.Itoa(from), "rank": a.Cards[0].RankCode()}
			s.Event(sdk.Event{Name: "asked", Seat: a.Seat, Data: words})
			if got := ofRank(s.Hands[from], rank); len(got) > 0 {
				s.Give(from, a.Seat, got)
				s.Event(sdk.Event{Name: "gave", Seat: from, Cards: got, Data: map[string]string{"target": strconv.Itoa(a.Seat)}})
				s.GoAgain()
			} else {
				s.Event(sdk.Event{Name: "go_fish", Seat: from})
				if c, ok := s.Draw(a.Seat); ok && c.Rank() == rank {
					s.Event(sdk.Event{Name: "lucky", Seat: a.Seat, Cards: []sdk.Card{c}, Data: words})
					s.GoAgain()
				}
			}
			books(s, a.Seat)
			return nil
		},
	}},
	// The game ends when all 13 books are made; most books wins (a tie is a draw).
	End: func(s *fish) (bool, int) {
		laid, best, winner := 0, -1, sdk.NoSeat
		for seat := range s.Seats {
			n := len(s.LaidCards(seat))
			laid += n
			if n > best {
				best, winner = n, seat
			} else if n == best {
				winner = sdk.NoSeat
			}
		}
		return laid == 52, winner
	},
	Score: func(s *fish, seat int) int { return len(s.LaidCards(seat)) / 4 },
}

// ofRank returns the cards of hand of the rank.
func ofRank(hand []sdk.Card, rank int) (out []sdk.Card) {
	for _, c := range hand {
		if c.Rank() == rank {
			out = append(out, c)
		}
	}
	return out
}

// books lays down every four of a kind in seat's hand.
func books(s *fish, seat int) {
	for rank := 1; rank <= 13; rank++ {
		if four := ofRank(s.Hands[seat], rank); len(four) == 4 {
			s.Lay(seat, four)
			s.Event(sdk.Event{Name: "book", Seat: seat, Cards: four, Data: map[string]string{"rank": four[0].RankCode()}})
		}
	}
}

// Example plays a seeded game of Go Fish between two level-1 bots, as the host would: it asks the
// bot of the seat in turn for an action from that seat's view, and applies it. It prints the
// events of the first three moves (the drawn cards every seat but the drawer sees as a count).
func Example() {
	ctx := context.Background()
	game := simple.New(goFish)
	s, _ := game.Start(ctx, sdk.StartRequest{Seats: 2, RNG: sdk.NewRNG(7)})
	bots := sdk.NewRNG(1)
	for n := 1; game.Status(s).Phase == sdk.PhasePlaying; n++ {
		seat := game.Status(s).Turn
		a, _ := game.Bot(ctx, sdk.BotRequest{Seat: seat, Level: 1, View: game.View(s, seat), RNG: &bots})
		res, err := game.Apply(ctx, sdk.ApplyRequest[fish]{State: s, Action: *a})
		if err != nil {
			panic(err) // the bot chose from its view: never refused
		}
		for _, e := range res.Events {
			if n <= 3 && e.Name != "turn" {
				fmt.Printf("seat %d %s %v %v\n", e.Seat, e.Name, e.Cards, e.Data)
			}
		}
		s = res.State
	}
	fmt.Println("game over: books", game.Observe(s)["scores"], "winner: seat", s.Winner)
	// Output:
	// seat 0 asked [] map[rank:4 target:1]
	// seat 1 gave [4C] map[target:0]
	// seat 0 asked [] map[rank:5 target:1]
	// seat 1 go_fish [] map[]
	// seat 0 drew [10S] map[]
	// seat 1 asked [] map[rank:2 target:0]
	// seat 0 go_fish [] map[]
	// seat 1 drew [2D] map[]
	// seat 1 lucky [2D] map[rank:2 target:0]
	// game over: books [4 9] winner: seat 1
}
