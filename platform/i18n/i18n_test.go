package i18n

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestLocalesAreTheClients: the server accepts as an account's locale exactly the locales the
// client offers in its switch (web/static/js/i18n.js, LOCALES), each with its catalog.
func TestLocalesAreTheClients(t *testing.T) {
	b, err := os.ReadFile("../../web/static/js/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	var client []string
	for _, m := range regexp.MustCompile(`\{ id: "(\w+)", name: `).FindAllStringSubmatch(string(b), -1) {
		client = append(client, m[1])
	}
	if !slices.Equal(client, Locales) {
		t.Fatalf("the client offers %v, the server accepts %v", client, Locales)
	}
	for _, id := range Locales {
		if _, err := os.Stat("../../web/static/i18n/" + id + ".json"); err != nil {
			t.Errorf("locale %s has no catalog: %v", id, err)
		}
		if !Supported(id) {
			t.Errorf("Supported(%q) is false", id)
		}
	}
	if Supported("xx") || Supported("") {
		t.Error("Supported takes a locale the site has not")
	}
}
