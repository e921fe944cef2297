package hotspot

import "maps"

// textsFR are Hotspot's player-facing texts in French (sdk.Info.Texts), keyed by the English the
// variant writes. A key with {placeholders} also words the texts it matches ("Hand {n}" words
// "Hand 3"): web/static/js/i18n.js.
var textsFR = map[string]string{
	"Play":                  "Jouer",
	"Classic":               "Classique",
	"Quick game":            "Partie rapide",
	"{seat} played {cards}": "{seat} a joué {cards}",
	"{seat} drew {cards}":   "{seat} a pioché {cards}",
	"{seat} wins!":          "{seat} gagne !",
	"{seat} is skipped":     "{seat} passe son tour",
	"Direction":             "Sens",
	"Direction reversed":    "Sens inversé",
	"Hotspot":               "Hotspot",
	"Match suit or rank and be first to empty your hand: wild Aces, skipping Kings, reversing Jacks, Queens that give an extra go and 2s that stack.": "Jouez la même couleur ou la même valeur et videz votre main le premier : As jokers, Rois qui font passer, Valets qui inversent, Dames qui font rejouer et 2 qui s’additionnent.",
	"1 deck for 2–4 players, 2 decks for 5–8":                                                        "1 paquet de 2 à 4 joueurs, 2 paquets de 5 à 8",
	"A player who draws a card they can play may play it at once (otherwise drawing ends the turn).": "Un joueur qui pioche une carte jouable peut la jouer aussitôt (sinon la pioche termine le tour).",
	"Cards dealt":                 "Cartes distribuées",
	"Cards dealt to each player.": "Cartes distribuées à chaque joueur.",
	"Deck":                        "Pioche",
	"Decks":                       "Paquets",
	"Draw":                        "Piocher",
	"End turn":                    "Finir le tour",
	"Extra go":                    "Rejouer",
	"How long a player left with one card has to press LAST CARD.": "Le temps qu’a un joueur à qui il reste une carte pour appuyer sur DERNIÈRE CARTE.",
	"How many 52-card decks are shuffled together (no jokers).":    "Combien de paquets de 52 cartes sont mélangés ensemble (sans jokers).",
	"LAST CARD seconds":                    "Secondes pour DERNIÈRE CARTE",
	"LAST CARD!":                           "DERNIÈRE CARTE !",
	"New deal: {opener:seat} opens":        "Nouvelle donne : {opener:seat} ouvre",
	"Pick up":                              "Ramasser",
	"Pick up {n}":                          "Ramasser {n}",
	"Pile":                                 "Pile",
	"Play after drawing":                   "Jouer après la pioche",
	"Suit":                                 "Couleur",
	"The pile is shuffled into a new deck": "La pile est mélangée en une nouvelle pioche",
	"{seat} chose {suit:choice}":           "{seat} a choisi {suit:choice}",
	"{seat} ends the turn":                 "{seat} finit son tour",
	"{seat} forgot to call LAST CARD in time: +{count:cards}": "{seat} a oublié d’annoncer DERNIÈRE CARTE à temps : +{count:cards}",
	"{seat} picked up {count:cards} for the 2s":               "{seat} a ramassé {count:cards} pour les 2",
	"{seat}'s Jack passes the turn":                           "Le Valet de {seat} fait passer le tour",
	"{seat}: LAST CARD!":                                      "{seat} : DERNIÈRE CARTE !",
}

// texts are the variant's texts by locale (sdk.Info.Texts).
func texts() map[string]map[string]string {
	return map[string]map[string]string{"fr": maps.Clone(textsFR)}
}
