package spades

import "maps"

// textsFR are Spades's player-facing texts in French (sdk.Info.Texts), keyed by the English the
// variant writes. A key with {placeholders} also words the texts it matches ("Hand {n}" words
// "Hand 3"): web/static/js/i18n.js.
var textsFR = map[string]string{
	"Spades": "Spades",
	"Two teams of partners bid the tricks they will take; spades are always trumps.": "Deux équipes de partenaires annoncent les plis qu’elles feront ; le pique est toujours atout.",
	"A new hand is dealt": "Une nouvelle donne est distribuée",
	"A team whose total falls to minus 200 or below loses at once.": "Une équipe dont le total tombe à moins 200 ou en dessous perd aussitôt.",
	"Bid":       "Annoncer",
	"Blind nil": "Nil à l’aveugle",
	"Blind nil allowed, and no mercy for a team deep in the red.": "Nil à l’aveugle permis, et pas de pitié pour une équipe dans le rouge.",
	"Classic":   "Classique",
	"Daredevil": "Casse-cou",
	"Hand {n}":  "Donne {n}",
	"Hand {hand}: seats 1 & 3 {result0}, seats 2 & 4 {result1}; totals {score0} to {score1}": "Donne {hand} : places 1 et 3 {result0}, places 2 et 4 {result1} ; totaux {score0} à {score1}",
	"Led":                "Entame",
	"Look at your cards": "Regarder vos cartes",
	"Mercy rule":         "Règle de pitié",
	"Nil":                "Nil",
	"Play":               "Jouer",
	"Players start each hand without seeing their cards and may bid blind nil (200 points) before they look.": "Les joueurs commencent chaque donne sans voir leurs cartes et peuvent annoncer nil à l’aveugle (200 points) avant de les regarder.",
	"Points to win":     "Points pour gagner",
	"Quick game":        "Partie rapide",
	"Seats 1 & 3":       "Places 1 et 3",
	"Seats 2 & 4":       "Places 2 et 4",
	"Spades are broken": "Le pique est ouvert",
	"Spades broken":     "Pique ouvert",
	"The game ends after the hand in which a team reaches this total; the higher total wins, and equal totals play another hand.": "La partie s’arrête après la donne où une équipe atteint ce total ; le plus haut total gagne, et à égalité on joue une autre donne.",
	"To 250 points: a short game of a few hands.":       "En 250 points : une partie courte de quelques donnes.",
	"To 500 points, with the mercy rule, no blind nil.": "En 500 points, avec la règle de pitié, sans nil à l’aveugle.",
	"Tricks taken":                     "Plis remportés",
	"bags {n}":                         "sacs {n}",
	"nil failed":                       "nil raté",
	"nil made":                         "nil réussi",
	"set":                              "chute",
	"made":                             "réussi",
	"{seat} and {target} win the game": "{seat} et {target} gagnent la partie",
	"{seat} bid {bid}":                 "{seat} annonce {bid}",
	"{seat} looked at their cards":     "{seat} a regardé ses cartes",
	"{seat} played {cards}":            "{seat} a joué {cards}",
	"{seat} took the trick":            "{seat} a remporté le pli",
	"nil":                              "nil",
	"blind nil":                        "nil à l’aveugle",
}

// texts are the variant's texts by locale (sdk.Info.Texts).
func texts() map[string]map[string]string {
	return map[string]map[string]string{"fr": maps.Clone(textsFR)}
}
