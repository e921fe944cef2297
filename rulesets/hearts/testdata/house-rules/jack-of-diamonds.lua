name = "jack-of-diamonds"
description = "The jack of diamonds takes 10 points off the score of the player who takes it."
answers = {
  score_hand = function(game, args)
    if string.find(" " .. args.cards .. " ", " JD ", 1, true) then
      return tonumber(args.points) - 10
    end
    return nil
  end,
}
