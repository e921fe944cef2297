package lastcard

import "maps"

// textsFR are Last Card's player-facing texts in French (sdk.Info.Texts), keyed by the English the
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
	"Last Card":             "Dernière carte",
	"Match the colour or the value, play your Jokers well, and call \"Last card!\" before you go out.": "Jouez la même couleur ou la même valeur, placez bien vos Jokers, et annoncez « Dernière carte ! » avant de finir.",
	"{points} points": "{points} points",
	"A player facing a Draw Two may answer with a Draw Two of any colour, passing the penalty on increased by two.": "Un joueur face à un +2 peut répondre par un +2 de n’importe quelle couleur, et passe la pénalité augmentée de deux.",
	"A single round: the first out wins.": "Une seule manche : le premier à finir gagne.",
	"Any time":                            "N’importe quand",
	"Automatic penalty":                   "Pénalité automatique",
	"Cards to draw":                       "Cartes à piocher",
	"Catch out":                           "Prendre en défaut",
	"Colour in play":                      "Couleur en jeu",
	"Discard pile":                        "Défausse",
	"Draw {n}":                            "+{n}",
	"Draw a card":                         "Piocher une carte",
	"Draw pile":                           "Pioche",
	"First to 200 points.":                "Le premier à 200 points.",
	"First to 500 points; Draw Twos stack; a Joker Draw Four only without the colour in play.":                                                                    "Le premier à 500 points ; les +2 s’additionnent ; un Joker +4 seulement sans la couleur en jeu.",
	"Forget to call and an opponent may catch you out until the next player moves (two penalty cards), or you draw the two penalty cards at once (online rooms).": "Oubliez d’annoncer et un adversaire peut vous prendre en défaut jusqu’au coup suivant (deux cartes de pénalité), ou vous piochez aussitôt les deux cartes de pénalité (salles en ligne).",
	"Forgotten \"Last card!\"":                 "« Dernière carte ! » oubliée",
	"Joker Draw Four":                          "Joker +4",
	"Joker Draw Fours any time, first to 200.": "Jokers +4 à tout moment, le premier à 200.",
	"Just drawn":                               "Tout juste piochée",
	"Keep it":                                  "La garder",
	"Last card!":                               "Dernière carte !",
	"One round":                                "Une manche",
	"Only without the colour in play":          "Seulement sans la couleur en jeu",
	"Others may catch you out":                 "Les autres peuvent vous prendre en défaut",
	"Play to":                                  "Jouer jusqu’à",
	"Round {round} is dealt":                   "La manche {round} est distribuée",
	"Stack Draw Twos":                          "Cumuler les +2",
	"The pile is shuffled into a new deck":     "La pile est mélangée en une nouvelle pioche",
	"The score that wins the game, or a single round.":                                                              "Le score qui gagne la partie, ou une seule manche.",
	"When a Joker Draw Four may be played: only when you hold no card of the colour in play, or whenever you like.": "Quand un Joker +4 peut être joué : seulement si vous n’avez aucune carte de la couleur en jeu, ou quand vous voulez.",
	"Wild":                        "Sauvage",
	"{seat} chose {color:choice}": "{seat} a choisi {color:choice}",
	"{seat} forgot to call LAST CARD: +{count:cards}":                          "{seat} a oublié d’annoncer DERNIÈRE CARTE : +{count:cards}",
	"{seat} forgot to call LAST CARD: caught out by {by:seat}, +{count:cards}": "{seat} a oublié d’annoncer DERNIÈRE CARTE : pris en défaut par {by:seat}, +{count:cards}",
	"{seat} picked up {count:cards} as a penalty":                              "{seat} a pioché {count:cards} de pénalité",
	"{seat} picked up {count:cards} for being caught out":                      "{seat} a pioché {count:cards} pour avoir été pris en défaut",
	"{seat} picked up {count:cards} for the Draw Four":                         "{seat} a pioché {count:cards} pour le +4",
	"{seat} picked up {count:cards} for the Draw Two":                          "{seat} a pioché {count:cards} pour le +2",
	"{seat} reversed: with two players that skips, {seat} goes again":          "{seat} a inversé le sens : à deux joueurs cela fait passer, {seat} rejoue",
	"{seat} scores {count} points":                                             "{seat} marque {count} points",
	"{seat}: LAST CARD!":                                                       "{seat} : DERNIÈRE CARTE !",
}

// texts are the variant's texts by locale (sdk.Info.Texts).
func texts() map[string]map[string]string {
	return map[string]map[string]string{"fr": maps.Clone(textsFR)}
}
