// Package i18n is what the server knows of the site's languages: the locales the client has
// catalogs for (web/static/i18n/LOCALE.json; web/static/js/i18n.js lists the same ones), which an
// account may choose (store.User.Locale).
//
// The server speaks English: its error reasons, like every text of the client, are English source
// texts with stable codes, and the client translates them from its catalogs (keys are the English
// text), so that each text has one translation in one place (web/static/js/i18n.js).
package i18n

import "slices"

// Locales are the languages of the site, English first.
var Locales = []string{"en", "fr", "ar"}

// Supported says whether id is one of Locales.
func Supported(id string) bool {
	return slices.Contains(Locales, id)
}
