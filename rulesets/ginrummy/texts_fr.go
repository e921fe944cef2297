package ginrummy

import "maps"

// textsFR are Gin Rummy's player-facing texts in French (sdk.Info.Texts), keyed by the English the
// variant writes. A key with {placeholders} also words the texts it matches ("Hand {n}" words
// "Hand 3"): web/static/js/i18n.js.
var textsFR = map[string]string{
	"Laying off":       "Ajouts",
	"Draw and discard": "Pioche et défausse",
	"Upcard offer":     "Carte retournée proposée",
	"Gin Rummy":        "Gin-rami",
	"Draw and discard to build sets and runs, then knock when your loose cards are low, or go gin with none.":                                "Piochez et défaussez pour former des brelans et des suites, puis frappez quand vos cartes perdues sont faibles, ou faites gin sans aucune.",
	"A player whose eleven cards all make melds after drawing may lay them all down at once for 31 points plus the other player's deadwood.": "Un joueur dont les onze cartes forment toutes des combinaisons après la pioche peut les étaler d’un coup pour 31 points plus les cartes perdues de l’autre.",
	"Big gin":                   "Big gin",
	"Classic":                   "Classique",
	"Deadwood: {points} points": "Cartes perdues : {points} points",
	"Discard":                   "Défausser",
	"Discard pile":              "Défausse",
	"Done laying off":           "Fin des ajouts",
	"Draw":                      "Piocher",
	"Draw from the stock":       "Piocher dans le talon",
	"First to 100 points; knock with 10 or less.":               "Le premier à 100 points ; on frappe avec 10 ou moins.",
	"First to 250 points; eleven cards in melds score big gin.": "Le premier à 250 points ; onze cartes en combinaisons font big gin.",
	"First to 50 points.":                                       "Le premier à 50 points.",
	"Game bonus":                                                "Prime de partie",
	"Gin only":                                                  "Gin seulement",
	"Hand":                                                      "Donne",
	"Hand {n}":                                                  "Donne {n}",
	"Knock":                                                     "Frapper",
	"Knock card":                                                "Carte de frappe",
	"Knock with at most":                                        "Frapper avec au plus",
	"Lay off":                                                   "Ajouter",
	"Line bonus":                                                "Prime de ligne",
	"Long game with big gin":                                    "Partie longue avec big gin",
	"Meld {n}":                                                  "Combinaison {n}",
	"No knocking: only gin ends a hand; first to 100.": "Pas de frappe : seul le gin termine une donne ; le premier à 100.",
	"Now": "Maintenant",
	"Only two cards are left in the stock: the hand is void": "Il ne reste que deux cartes au talon : la donne est nulle",
	"Pass":                                "Passer",
	"Play to":                             "Jouer jusqu’à",
	"Quick game":                          "Partie rapide",
	"Stock":                               "Talon",
	"Take the {card}":                     "Prendre le {card}",
	"Take the upcard":                     "Prendre la carte retournée",
	"Taken from the discard pile":         "Pris dans la défausse",
	"The game is over: bonuses are added": "La partie est finie : les primes sont ajoutées",
	"The most deadwood points a player may hold when knocking. 0 allows only gin.":                                                                     "Le plus de points de cartes perdues qu’un joueur peut garder pour frapper. 0 n’autorise que le gin.",
	"The score that ends the game. The winner then gets 100 points more (200 if the other player won no hand) and each player 25 points per hand won.": "Le score qui termine la partie. Le gagnant reçoit alors 100 points de plus (200 si l’autre n’a gagné aucune donne) et chaque joueur 25 points par donne gagnée.",
	"Your deadwood":                           "Vos cartes perdues",
	"shutout":                                 "blanchissage",
	"void":                                    "nulle",
	"{seat} dealt a new hand":                 "{seat} a distribué une nouvelle donne",
	"{seat} discarded {cards}":                "{seat} a défaussé {cards}",
	"{seat} drew {cards} from the {from}":     "{seat} a pioché {cards} dans {from}",
	"{seat} knocked with {deadwood} deadwood": "{seat} a frappé avec {deadwood} de cartes perdues",
	"{seat} laid off {cards}":                 "{seat} a ajouté {cards}",
	"{seat} passed":                           "{seat} a passé",
	"{seat} scored {count} points":            "{seat} a marqué {count} points",
	"{seat} undercut the knock!":              "{seat} contre la frappe !",
	"{seat} went gin!":                        "{seat} fait gin !",
	"{seat} won the hand":                     "{seat} a gagné la donne",
	"stock":                                   "le talon",
	"discard pile":                            "la défausse",
}

// texts are the variant's texts by locale (sdk.Info.Texts).
func texts() map[string]map[string]string {
	return map[string]map[string]string{"fr": maps.Clone(textsFR)}
}
