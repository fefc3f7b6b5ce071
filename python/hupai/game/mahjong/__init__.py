"""The mahjong family's hand flow (Guangdong, Yunxiao, Kawuxing): :mod:`.flow` runs a hand, :mod:`.claims`
asks and resolves claims on a discard or a kong, :mod:`.illegal` says why an action is refused, and
:mod:`.observation` builds what one seat may see."""
