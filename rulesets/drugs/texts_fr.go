package drugs

import "maps"

// textsFR are DRUGS's player-facing texts in French (sdk.Info.Texts), keyed by the English the
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
	"DRUGS":                 "DRUGS",
	"Shithead/Palace: play equal or higher, burn with 10s and overdoses, and in Chaos mode roll a Joker's effect.": "Shithead/Palace : jouez égal ou plus fort, brûlez la pile avec les 10 et les overdoses, et en mode Chaos tirez l’effet d’un Joker.",
	"7 or lower": "7 ou moins",
	"Burned":     "Brûlées",
	"Chaos":      "Chaos",
	"Chaos Joker: Everybody pays! Every other player draws a card":           "Joker du chaos : tout le monde paie ! Chaque autre joueur pioche une carte",
	"Chaos Joker: Everyone dumps! Lowest cards onto the pile":                "Joker du chaos : tout le monde se débarrasse ! Les plus petites cartes sur la pile",
	"Chaos Joker: Everyone passes! Every hand moves one seat along":          "Joker du chaos : tout le monde passe ! Chaque main avance d’une place",
	"Chaos Joker: Gift! A card is given away":                                "Joker du chaos : cadeau ! Une carte est offerte",
	"Chaos Joker: Hand swap! Hands trade with the next player":               "Joker du chaos : échange de mains ! Les mains s’échangent avec le joueur suivant",
	"Chaos Joker: Skip! The next player loses their turn":                    "Joker du chaos : passe ! Le joueur suivant perd son tour",
	"Chaos Joker: Time bomb! Answer with 2, 3, 10 or Joker, or eat the pile": "Joker du chaos : bombe à retardement ! Répondez avec un 2, un 3, un 10 ou un Joker, ou ramassez la pile",
	"Chaos Joker: {effect}":                                                  "Joker du chaos : {effect}",
	"Chaos mode":                                                             "Mode Chaos",
	"Chaos, and three of a kind already overdose.":                           "Chaos, et trois cartes identiques font déjà overdose.",
	"Fire":           "Feu",
	"Flip blind":     "Retourner à l’aveugle",
	"Gift from seat": "Cadeau de la place",
	"Give a card":    "Donner une carte",
	"Jokers in the deck, each rolling a random effect.": "Des Jokers dans le paquet, chacun tirant un effet au hasard.",
	"OVERDOSE! {seat} burns the pile":                   "OVERDOSE ! {seat} brûle la pile",
	"Overdose":                                          "Overdose",
	"Overdose at":                                       "Overdose à",
	"Pick up the pile":                                  "Ramasser la pile",
	"Play face-up":                                      "Jouer une carte visible",
	"Quick burns":                                       "Brûlages rapides",
	"Run":                                               "Série",
	"The game as the rules tell it: no Jokers, four of a kind overdose.":                                                                                       "Le jeu tel que le disent les règles : pas de Jokers, quatre cartes identiques font overdose.",
	"This many cards of one rank in a row on top of the pile burn it, and the player who completed the run goes again. With one deck (2-4 players) at most 4.": "Autant de cartes de même valeur d’affilée sur la pile la brûlent, et le joueur qui a complété la série rejoue. Avec un seul paquet (2 à 4 joueurs), 4 au plus.",
	"Time bomb": "Bombe à retardement",
	"Two Jokers per deck; each Joker played does something random.":                                       "Deux Jokers par paquet ; chaque Joker joué fait quelque chose au hasard.",
	"Wait for dropped players (minutes)":                                                                  "Attente des joueurs déconnectés (minutes)",
	"When everyone has dropped, the game waits this long for someone to come back before it is given up.": "Quand tout le monde est parti, la partie attend ce temps que quelqu’un revienne avant d’être abandonnée.",
	"Wide open":                           "Grand ouvert",
	"burned":                              "brûlées",
	"deck":                                "pioche",
	"face down":                           "face cachée",
	"face up":                             "face visible",
	"hand":                                "main",
	"pile":                                "pile",
	"{seat} burned the pile!":             "{seat} a brûlé la pile !",
	"{seat} dumped {cards}":               "{seat} s’est débarrassé de {cards}",
	"{seat} flipped {cards}":              "{seat} a retourné {cards}",
	"{seat} gave {cards} to {to:seat}":    "{seat} a donné {cards} à {to:seat}",
	"{seat} picked up the pile ({count})": "{seat} a ramassé la pile ({count})",
}

// texts are the variant's texts by locale (sdk.Info.Texts).
func texts() map[string]map[string]string {
	return map[string]map[string]string{"fr": maps.Clone(textsFR)}
}
