package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cardhouse/platform/rating"
)

// GameResult is one person's result in one finished game (migration 00016): where they placed,
// whether they left before the end, and their rating in the game's variant before and after it
// (nil when the game moved no rating: a guest, or a game without two rated sides).
type GameResult struct {
	GameID  int64 `gorm:"primaryKey;autoIncrement:false"`
	UserID  int64 `gorm:"primaryKey;autoIncrement:false"`
	Seat    int
	Ruleset string
	Place   int
	// Players is the number of seats of the game, bots included.
	Players     int
	LeftGame    bool
	MuBefore    *float64
	SigmaBefore *float64
	MuAfter     *float64
	SigmaAfter  *float64
	EndedAt     time.Time
}

// PlayerRating is a registered account's rating in one variant, with the rated games it played
// and won there. Ordinal (Mu - 3 Sigma) is what the leaderboard orders by.
type PlayerRating struct {
	UserID    int64  `gorm:"primaryKey;autoIncrement:false"`
	Ruleset   string `gorm:"primaryKey"`
	Mu        float64
	Sigma     float64
	Ordinal   float64
	Games     int
	Wins      int
	UpdatedAt time.Time
}

// TableName names the ratings table.
func (PlayerRating) TableName() string { return "ratings" }

// FinishedSeat is one seat of a finished game as the room saw it at the end.
type FinishedSeat struct {
	// UserID is who was dealt the seat (0: a bot).
	UserID int64
	Team   int
	Place  int
	// Left: that person was no longer playing the seat at the end (they left, or dropped and a
	// bot covered the seat to the end).
	Left bool
}

// Finished is a finished game to record: its id, variant, end and seats.
type Finished struct {
	GameID  int64
	Ruleset string
	EndedAt time.Time
	Seats   []FinishedSeat
}

// ErrRecorded is returned by RecordFinished for a game whose results were recorded before (by this
// node or another): nothing is written a second time.
var ErrRecorded = errors.New("game results already recorded")

// RecordFinished records the results of a finished game once: a GameResult per person seated
// (guests too, so a guest who registers keeps the record), and, when at least two humans played
// and at least two sides hold registered accounts, new ratings for those accounts in the game's
// variant (rating.Default().RateGame: partners as a team, a leaver as last, bots and guests move
// nothing). One transaction; a second call for the same game returns ErrRecorded and changes
// nothing. It returns the results written.
func (s *Store) RecordFinished(ctx context.Context, f Finished) ([]GameResult, error) {
	var out []GameResult
	err := s.write(ctx, func(tx *gorm.DB) error {
		out = out[:0]
		var n int64
		if err := tx.Model(&GameResult{}).Where("game_id = ?", f.GameID).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return ErrRecorded
		}
		var ids []int64
		for _, st := range f.Seats {
			if st.UserID != 0 {
				ids = append(ids, st.UserID)
			}
		}
		if len(ids) == 0 {
			return nil
		}
		var users []User
		if err := tx.Where("id IN ?", ids).Find(&users).Error; err != nil {
			return err
		}
		registered := map[int64]bool{}
		for _, u := range users {
			registered[u.ID] = !u.Guest
		}
		humans := map[int64]bool{}
		var seats []rating.Seat
		for _, st := range f.Seats {
			if st.UserID == 0 {
				continue
			}
			if _, ok := registered[st.UserID]; !ok {
				continue // an account deleted since
			}
			humans[st.UserID] = true
			acct := int64(0)
			if registered[st.UserID] {
				acct = st.UserID
			}
			seats = append(seats, rating.Seat{Account: acct, Team: st.Team, Place: st.Place, Left: st.Left})
		}
		before := map[int64]rating.Rating{}
		after := map[int64]rating.Rating{}
		if len(humans) >= 2 {
			var cur []PlayerRating
			if err := tx.Where("ruleset = ? AND user_id IN ?", f.Ruleset, ids).Find(&cur).Error; err != nil {
				return err
			}
			for _, c := range cur {
				before[c.UserID] = rating.Rating{Mu: c.Mu, Sigma: c.Sigma}
			}
			var err error
			if after, err = rating.Default().RateGame(seats, before); err != nil {
				return err
			}
		}
		players := len(f.Seats) // bots too: "2nd of 4" is the table's count
		for seat, st := range f.Seats {
			if st.UserID == 0 || !humans[st.UserID] {
				continue
			}
			res := GameResult{GameID: f.GameID, UserID: st.UserID, Seat: seat, Ruleset: f.Ruleset, Place: st.Place,
				Players: players, LeftGame: st.Left, EndedAt: f.EndedAt.UTC()}
			if a, ok := after[st.UserID]; ok {
				b, had := before[st.UserID]
				if !had {
					b = rating.Default().New()
				}
				res.MuBefore, res.SigmaBefore, res.MuAfter, res.SigmaAfter = &b.Mu, &b.Sigma, &a.Mu, &a.Sigma
				won := 0
				if st.Place == 1 && !st.Left {
					won = 1
				}
				row := PlayerRating{UserID: st.UserID, Ruleset: f.Ruleset, Mu: a.Mu, Sigma: a.Sigma, Ordinal: a.Ordinal(),
					Games: 1, Wins: won, UpdatedAt: f.EndedAt.UTC()}
				if err := tx.Clauses(clause.OnConflict{
					Columns: []clause.Column{{Name: "user_id"}, {Name: "ruleset"}},
					DoUpdates: clause.Assignments(map[string]any{
						"mu": a.Mu, "sigma": a.Sigma, "ordinal": a.Ordinal(), "updated_at": row.UpdatedAt,
						"games": gorm.Expr("ratings.games + 1"), "wins": gorm.Expr("ratings.wins + ?", won),
					}),
				}).Create(&row).Error; err != nil {
					return err
				}
			}
			if err := tx.Create(&res).Error; err != nil {
				return err
			}
			out = append(out, res)
		}
		return nil
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return nil, ErrRecorded // another node recorded the game between our read and our write
	}
	if err != nil && !errors.Is(err, ErrRecorded) {
		return nil, fmt.Errorf("recording the results of game %d: %w", f.GameID, err)
	}
	return out, err
}

// Ratings returns an account's ratings, one per variant it has a rated game in.
func (s *Store) Ratings(ctx context.Context, userID int64) ([]PlayerRating, error) {
	var out []PlayerRating
	err := s.db.WithContext(ctx).Where("user_id = ?", userID).Order("ruleset").Find(&out).Error
	return out, err
}

// BoardRow is one line of a variant's leaderboard.
type BoardRow struct {
	PlayerRating
	DisplayName string
}

// Leaderboard returns the best-rated accounts of a variant by ordinal (then by more games),
// limit rows from offset; banned accounts are left out.
func (s *Store) Leaderboard(ctx context.Context, ruleset string, limit, offset int) ([]BoardRow, error) {
	var out []BoardRow
	err := s.db.WithContext(ctx).Table("ratings").
		Select("ratings.*, users.display_name").
		Joins("JOIN users ON users.id = ratings.user_id").
		Where("ratings.ruleset = ? AND users.banned = ?", ruleset, false).
		Order("ratings.ordinal DESC, ratings.games DESC, ratings.user_id").
		Limit(limit).Offset(offset).Scan(&out).Error
	return out, err
}

// HistoryRow is one game of an account's history: its result and where to find the game.
type HistoryRow struct {
	GameResult
	RoomCode   string
	GameNumber int
	Status     string
}

// History returns an account's finished games, newest first, limit rows from offset.
func (s *Store) History(ctx context.Context, userID int64, limit, offset int) ([]HistoryRow, error) {
	var out []HistoryRow
	err := s.db.WithContext(ctx).Table("game_results").
		Select("game_results.*, rooms.code AS room_code, games.number AS game_number, games.status AS status").
		Joins("JOIN games ON games.id = game_results.game_id").
		Joins("JOIN rooms ON rooms.id = games.room_id").
		Where("game_results.user_id = ?", userID).
		Order("game_results.ended_at DESC, game_results.game_id DESC").
		Limit(limit).Offset(offset).Scan(&out).Error
	return out, err
}

// VariantStats is what an account played of one variant: games finished and won (first place,
// still seated at the end).
type VariantStats struct {
	Ruleset string `json:"ruleset"`
	Games   int    `json:"games"`
	Wins    int    `json:"wins"`
}

// Stats returns an account's games and wins per variant.
func (s *Store) Stats(ctx context.Context, userID int64) ([]VariantStats, error) {
	var out []VariantStats
	err := s.db.WithContext(ctx).Table("game_results").
		Select("ruleset, COUNT(*) AS games, SUM(CASE WHEN place = 1 AND NOT left_game THEN 1 ELSE 0 END) AS wins").
		Where("user_id = ?", userID).Group("ruleset").Order("ruleset").Scan(&out).Error
	return out, err
}

// RatingsIn returns the ratings in one variant of the accounts ids that have one, by account.
func (s *Store) RatingsIn(ctx context.Context, ruleset string, ids []int64) (map[int64]PlayerRating, error) {
	out := map[int64]PlayerRating{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []PlayerRating
	if err := s.db.WithContext(ctx).Where("ruleset = ? AND user_id IN ?", ruleset, ids).Find(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.UserID] = r
	}
	return out, nil
}

// RegisterGuest turns guest account id into a registered one with username, display name and
// password hash, keeping its id and so its seats, games and history (issue 32). A taken
// username returns ErrConflict; an account that is not a guest (any more) ErrNotFound.
func (s *Store) RegisterGuest(ctx context.Context, id int64, username, displayName, passwordHash string) (*User, error) {
	err := s.write(ctx, func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ? AND guest = ?", id, true).
			Updates(map[string]any{"username": username, "display_name": displayName, "password_hash": passwordHash, "guest": false, "guest_key_hash": ""})
		if res.Error != nil {
			return notFound(res.Error, "username "+username)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("guest %d: %w", id, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.UserByID(ctx, id)
}

// OpenRoomsOf returns the open rooms userID is a member of (their "my games"), newest first.
func (s *Store) OpenRoomsOf(ctx context.Context, userID int64) ([]Room, error) {
	var out []Room
	err := s.db.WithContext(ctx).Where("status = ? AND id IN (?)", RoomOpen,
		s.db.Model(&Member{}).Select("room_id").Where("user_id = ?", userID)).
		Order("updated_at DESC, id DESC").Limit(50).Find(&out).Error
	return out, err
}
