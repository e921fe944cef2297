package hearts

import "maps"

// textsFR are Hearts's player-facing texts in French (sdk.Info.Texts), keyed by the English the
// variant writes. A key with {placeholders} also words the texts it matches ("Hand {n}" words
// "Hand 3"): web/static/js/i18n.js.
var textsFR = map[string]string{
	"to the left":  "à gauche",
	"to the right": "à droite",
	"across":       "en face",
	"no pass":      "pas de passe",
	"Hearts":       "Dame de pique",
	"Avoid taking hearts and the queen of spades; the lowest score wins.":                                                                                 "Évitez de prendre des cœurs et la dame de pique ; le plus petit score gagne.",
	"A moon shot takes 26 off the shooter's score instead.":                                                                                               "Un grand chelem retire plutôt 26 points au score de celui qui le réussit.",
	"Before each hand everyone passes three cards: to the left, to the right, across, then no pass, and round again. Off: every hand is played as dealt.": "Avant chaque donne, chacun passe trois cartes : à gauche, à droite, en face, puis sans passe, et on recommence. Désactivé : chaque donne se joue telle que distribuée.",
	"Classic": "Classique",
	"Every hand is played as dealt, game to 100.": "Chaque donne se joue telle que distribuée, partie en 100.",
	"Everyone else scores 26":                     "Les autres marquent 26",
	"Game ends at":                                "Fin de partie à",
	"Hand":                                        "Donne",
	"Hand {n}":                                    "Donne {n}",
	"Hand {hand} is dealt: {pass}":                "Donne {hand} distribuée : {pass}",
	"Hand {hand} is scored":                       "Donne {hand} comptée",
	"Hearts are broken":                           "Les cœurs sont ouverts",
	"Hearts broken":                               "Cœurs ouverts",
	"No passing":                                  "Sans passe",
	"Old moon":                                    "Ancien grand chelem",
	"Pass 3 cards across":                         "Passer 3 cartes en face",
	"Pass 3 cards to the left":                    "Passer 3 cartes à gauche",
	"Pass 3 cards to the right":                   "Passer 3 cartes à droite",
	"Pass this hand":                              "Passer cette donne",
	"Pass three cards":                            "Passer trois cartes",
	"Pass three cards, game to 100, a moon shot gives everyone else 26.": "Passe de trois cartes, partie en 100, un grand chelem donne 26 à tous les autres.",
	"Passing across":       "Passe en face",
	"Passing to the left":  "Passe à gauche",
	"Passing to the right": "Passe à droite",
	"Play":                 "Jouer",
	"Quick game":           "Partie rapide",
	"Shooting the moon":    "Grand chelem",
	"The classic rules, but the game ends at 50 points.":                                             "Les règles classiques, mais la partie s’arrête à 50 points.",
	"The game ends after the hand in which someone reaches this many points; the lowest score wins.": "La partie s’arrête après la donne où quelqu’un atteint ce nombre de points ; le plus petit score gagne.",
	"The shooter takes 26 off": "Le réussisseur retire 26",
	"What happens when one player takes every heart and the queen of spades.": "Ce qui arrive quand un joueur prend tous les cœurs et la dame de pique.",
	"{seat} passed {cards} to {target}":                                       "{seat} a passé {cards} à {target}",
	"{seat} played {cards}":                                                   "{seat} a joué {cards}",
	"{seat} received {cards} from {target}":                                   "{seat} a reçu {cards} de {target}",
	"{seat} shot the moon!":                                                   "{seat} a réussi le grand chelem !",
	"{seat} took the trick ({points} points)":                                 "{seat} a remporté le pli ({points} points)",
	"{seat} wins with {score} points":                                         "{seat} gagne avec {score} points",
}

// texts are the variant's texts by locale (sdk.Info.Texts).
func texts() map[string]map[string]string {
	return map[string]map[string]string{"fr": maps.Clone(textsFR)}
}
