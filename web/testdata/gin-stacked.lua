-- Stacked deals for Gin Rummy's browser playthroughs (web/gin_play_test.go): every hand seat 1
-- deals and seat 0 acts first, and the cards lie so that, played as the test plays them,
--   hand 1: seat 0 takes the 4D and knocks (KC face down) with 2 deadwood; seat 1 can lay
--           off the 5D (onto 2D-3D-4D) and the 7S (onto the 7s or onto 8S-9S-10S);
--   hand 2: seat 0 takes the 4H and discards the KC; seat 1 cannot knock on its one turn; seat 0
--           then draws the AH or the 5H from the stock (whichever seat 1 left on it) and goes gin;
--   hand 3: seat 0 takes the JH and knocks (KD face down) with 9 deadwood; seat 1 holds 5 and
--           can lay off its 5S: an undercut, laid off or not;
--   hand 4 and after: seat 0 takes the 7H and goes gin; seat 1 holds 86 deadwood, so seat 0
--           reaches 100 and the game ends, whatever the hands before scored.
-- The rest of the stock keeps the order of the shuffle.
name = "%NAME%"
description = "A stacked deck: the hands of a test, dealt the same in every game."

local DEALS = {
  { hand0 = {"7C", "7D", "7H", "8S", "9S", "10S", "2D", "3D", "2C", "KC"},
    hand1 = {"9H", "10H", "JH", "4S", "4H", "4C", "7S", "5D", "6C", "3S"},
    up = "4D", stock = {} },
  { hand0 = {"5C", "5S", "5D", "9D", "10D", "JD", "2H", "3H", "6C", "KC"},
    hand1 = {"8C", "8S", "8H", "10S", "JS", "QS", "6D", "2C", "3D", "9C"},
    up = "4H", stock = {"AH", "5H"} },
  { hand0 = {"6S", "7S", "8S", "JC", "JD", "2C", "3C", "4C", "9H", "KD"},
    hand1 = {"AS", "2S", "3S", "10H", "10S", "10C", "5D", "6D", "7D", "5S"},
    up = "JH", stock = {} },
  { hand0 = {"AH", "2H", "3H", "7C", "7S", "7D", "10D", "JD", "QD", "2C"},
    hand1 = {"KS", "KH", "QC", "JH", "10C", "9S", "9H", "8D", "6C", "4S"},
    up = "7H", stock = {} },
}

function on_start(game)
  local d = DEALS[math.min(game.round, #DEALS)]
  local placed = {}
  for _, list in ipairs({d.hand0, d.hand1, {d.up}, d.stock}) do
    for _, c in ipairs(list) do placed[c] = true end
  end
  local stock = {}
  for _, c in ipairs(d.stock) do stock[#stock + 1] = c end
  for _, z in ipairs({"hand.0", "hand.1", "pile", "deck", "out"}) do
    for _, c in ipairs(game.zones[z]) do
      if not placed[c] then stock[#stock + 1] = c end
    end
  end
  game.zones["hand.0"] = d.hand0
  game.zones["hand.1"] = d.hand1
  game.zones["pile"] = {d.up}
  game.zones["deck"] = stock
  game.zones["out"] = {}
  game.counters["dealer"] = 1
  game.turn = 0
end
