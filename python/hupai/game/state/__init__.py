"""The table's state and its checks, one place for both families: :mod:`.table` (the mahjong family's table),
:mod:`.zipai` (the zipai family's), :mod:`.wall` (the wall, seeded shuffles and per-hand seeds), and the checks
a saved game passes before it is loaded: :mod:`.validate` (schema, types, sizes, setup, actions) and
:mod:`.consistency` (the table against its wall, its actions and its rules)."""
