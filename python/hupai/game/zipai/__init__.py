"""The zipai family's hand flow (Wai Huzi): :mod:`.flow` runs a hand, :mod:`.deal` deals and stacks the cards,
:mod:`.illegal` says why an action is refused, and :mod:`.observation` builds what one seat may see."""
