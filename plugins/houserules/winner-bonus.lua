-- A score bonus and nothing else: the winner of a Last Card round scores extra points.
name = "winner-bonus"
description = "The winner of each round scores a bonus on top of the cards left in the other hands."
options = {
  {name = "points", type = "int", default = 50, min = 0, max = 500, label = "Bonus points"},
}

function on_round_end(game)
  if game.winner < 0 then return end
  local key = "score." .. game.winner
  if game.counters[key] == nil then
    error("this ruleset keeps no scores (no counter " .. key .. ")")
  end
  game.counters[key] = game.counters[key] + game.options.points
  game.emit("bonus", {seat = game.winner, count = game.options.points})
end
