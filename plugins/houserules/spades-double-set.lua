-- Spades: a team that misses its contract loses 20 points a trick bid instead of 10. It answers
-- the variant's question hand_points (asked for each team when a hand is scored).
name = "spades-double-set"
description = "A team that misses its contract loses 20 points a trick bid instead of 10."

answers = {
  hand_points = function(game, args)
    if string.find(args.notes, "set", 1, true) then
      return tonumber(args.points) - 10 * tonumber(args.contract)
    end
  end,
}
