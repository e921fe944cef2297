package store

import (
	"context"
	"fmt"

	"gorm.io/gorm"
)

// SetLocale stores the language a user chose for the site ("" for none; migration 00015).
func (s *Store) SetLocale(ctx context.Context, id int64, locale string) error {
	return s.write(ctx, func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ?", id).Update("locale", locale)
		if res.Error == nil && res.RowsAffected == 0 {
			return fmt.Errorf("user %d: %w", id, ErrNotFound)
		}
		return res.Error
	})
}
