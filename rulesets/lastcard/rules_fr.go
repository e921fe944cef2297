package lastcard

// rulesFR is the rules page (rulesMarkdown) in French (sdk.Info.RulesText).
const rulesFR = `# Dernière carte

**But.** Être le premier à se débarrasser de toutes ses cartes. Le gagnant d’une manche marque les
points des cartes restées dans les mains des adversaires. Une partie se joue en plusieurs manches
jusqu’à 500 points (ou 200), ou en une seule manche.

## Le paquet
108 cartes en quatre couleurs, rouge (la flamme), jaune (le soleil), vert (la feuille) et bleu (la
lune). Chaque couleur a un 0, deux de chaque chiffre de 1 à 9, deux Passe, deux Inversion et deux
+2. Puis quatre Jokers et quatre Jokers +4.

## Déroulement
- Chaque joueur reçoit 7 cartes. Une carte chiffre est retournée pour commencer la défausse (une
  carte spéciale retournée retourne dans la pioche).
- À votre tour, jouez une carte de la couleur en jeu ou de la même valeur que la carte du dessus
  (même chiffre ou même symbole), ou un Joker.
- Si vous ne pouvez pas jouer, ou ne le voulez pas, **piochez** une carte. Si elle est jouable,
  vous pouvez la jouer aussitôt ou la **garder** ; sinon votre tour s’arrête.
- Quand la pioche est vide, la défausse (sauf sa carte du dessus) est mélangée en une nouvelle
  pioche.

## Cartes spéciales
- **Passe** : le joueur suivant passe son tour.
- **Inversion** : le sens du jeu change. À deux joueurs, elle agit comme une Passe : vous rejouez.
- **+2** : le joueur suivant pioche deux cartes et passe son tour ; il appuie sur *Piocher* pour
  les prendre. Avec le cumul (activé par défaut), il peut plutôt jouer un +2 de n’importe quelle
  couleur : la pénalité passe au joueur suivant, augmentée de deux (4, 6, 8 cartes…).
- **Joker** : se joue sur n’importe quelle carte ; vous choisissez la couleur.
- **Joker +4** : vous choisissez la couleur et le joueur suivant pioche quatre cartes et passe son
  tour. Rien ne peut se jouer dessus, pas même un +2, et il ne peut pas répondre à un +2. Par
  défaut, vous ne pouvez le jouer que si vous n’avez aucune carte de la couleur en jeu (l’option
  *N’importe quand* lève cette limite). Il n’y a pas de contestation.
- Une carte spéciale jouée comme **toute dernière carte** termine aussitôt la manche, sans effet.

## Dernière carte !
Avant ou en jouant votre avant-dernière carte, appuyez sur **Dernière carte !**. Si vous oubliez :
- quand les autres peuvent vous prendre en défaut (contre l’ordinateur, un seul appareil),
  n’importe quel adversaire peut appuyer sur **Prendre en défaut** jusqu’au coup du joueur suivant,
  et vous piochez deux cartes de pénalité ; les joueurs de l’ordinateur attendent un instant
  d’abord, pour qu’une personne puisse prendre en défaut un robot qui a oublié ;
- avec la pénalité automatique (en ligne), finir votre tour avec une carte sans l’annoncer vous
  fait piocher aussitôt deux cartes de pénalité.
Piocher une carte annule une annonce faite plus tôt : annoncez de nouveau quand il vous reste deux
cartes.

## Décompte
Le gagnant de la manche marque les cartes restées dans les mains des adversaires : les chiffres à
leur valeur (0 à 9), 20 points pour une Passe, une Inversion ou un +2, 40 pour un Joker et 60 pour
un Joker +4. Le premier joueur à atteindre le total choisi (500 ou 200) gagne la partie. L’hôte
distribue chaque manche ; le premier joueur avance d’une place à chaque manche.

## Joueurs
2 à 4 joueurs : en ligne, contre l’ordinateur (un à trois adversaires) ou avec un seul appareil.
Les joueurs de l’ordinateur de niveau 1 jouent presque au hasard ; ceux de niveau 2 suivent des
règles simples : ils attaquent quand vous approchez de la fin et imposent leur couleur dominante.
Aucun joueur de l’ordinateur ne voit jamais vos cartes.
`
