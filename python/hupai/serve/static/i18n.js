// Every word of the browser table in Chinese and English, in one place. The page asks HupaiText.t("key", {vars})
// and gets the words of the language chosen (remembered in localStorage; Chinese by default on a Chinese
// browser). A classic script (one global, HupaiText), so a self-contained replay page can inline it too.
"use strict";

const HupaiText = (() => {
  const WORDS = {
    // The lobby
    app: ["胡牌 hupai", "胡牌 hupai"],
    lobby: ["大厅", "Lobby"],
    new_table: ["开一桌", "New table"],
    rule_system: ["玩法", "Game"],
    players_n: ["{n}人", "{n} players"],
    opponents: ["电脑对手", "Computer opponents"],
    bot_greedy: ["高手 · 稳健 (greedy)", "Strong · steady (greedy)"],
    bot_random: ["新手 · 随意 (random)", "Beginner · random (random)"],
    bot_speed: ["电脑出牌", "Computer plays"],
    speed_s: ["{s} 秒一手", "{s} s a move"],
    speed_instant: ["立即", "at once"],
    hands: ["局数", "Hands"],
    hands_n: ["{n} 局", "{n} hands"],
    time_control: ["计时", "Time control"],
    turn_timer: ["出牌时限", "Turn"],
    claim_timer: ["吃碰时限", "Claim"],
    time_bank: ["每局备用时间", "Time bank per hand"],
    seconds: ["{s} 秒", "{s} s"],
    no_limit: ["不限时", "no limit"],
    house_rules: ["地方规则", "House rules"],
    house_default: ["按规则书 (默认)", "as the rule book (default)"],
    sit_down: ["入座开局", "Sit down and play"],
    open_tables: ["正在进行", "Tables in play"],
    no_tables: ["暂无牌桌", "No table yet"],
    join: ["加入", "Join"],
    watch: ["观战", "Watch"],
    replay: ["回放", "Replay"],
    table_of: ["{rules} · 第{hand}局", "{rules} · hand {hand}"],
    language: ["English", "中文"],
    language_name: ["语言", "Language"],
    // The table
    you: ["你", "You"],
    seat_n: ["{n}号位", "Seat {n}"],
    bot: ["电脑", "bot"],
    dealer: ["庄", "Dealer"],
    wall_left: ["余 {n}", "Wall {n}"],
    wall_title: ["牌墙剩余张数", "tiles left to draw"],
    hand_of: ["第 {hand}/{hands} 局", "Hand {hand}/{hands}"],
    round_wind: ["{wind}风圈", "{wind} round"],
    your_move: ["轮到你", "Your move"],
    your_claim: ["要吗？", "Claim it?"],
    to_discard: ["{who} 出牌", "{who} to discard"],
    to_claim: ["等待 {who}", "Waiting for {who}"],
    hand_over: ["本局结束", "Hand over"],
    match_over: ["比赛结束", "Match over"],
    waiting: ["等待开局", "Waiting"],
    broken: ["此桌出错，已停止", "This table stopped on an error"],
    discarded_by: ["{who} 打出", "{who} discarded"],
    drawn_by_you: ["你摸到", "You drew"],
    turned_up: ["翻出", "Turned up"],
    offered_by: ["{who} 翻出", "Turned up by {who}"],
    tap_to_discard: ["点一张牌打出（再点确认）", "Tap a tile to select it, tap again to discard"],
    discard_selected: ["打出", "Discard"],
    auto_pass: ["自动过", "Auto-pass"],
    auto_pass_title: ["有吃碰时自动选择过（胡牌仍由你决定）", "answer 过 pass to every claim offer (never a win)"],
    sound: ["声音", "Sound"],
    copy_link: ["复制座位链接（在另一台设备上继续）", "Copy the seat link (to play on another device)"],
    copy_link_short: ["座位链接", "Seat link"],
    link_copied: ["座位链接已复制：在另一台设备上打开（请保密）", "Seat link copied: open it on your other device (keep it secret: it opens your seat)"],
    link_shown: ["复制下面的座位链接（请保密）", "Copy the seat link shown (keep it secret: it opens your seat)"],
    seat_link_label: ["座位链接（保密）", "seat link (secret: it opens your seat)"],
    play_here: ["在这里继续", "Play here"],
    other_device: ["此座位已在另一台设备上打开", "this seat is open on another device"],
    reconnecting: ["连接断开，重新连接中", "disconnected: reconnecting"],
    away: ["托管中：服务器的电脑替你出牌", "The server's bot is playing your seat."],
    take_back: ["取消托管", "Take my seat back"],
    auto_badge: ["托管", "auto"],
    auto_title: ["离开：服务器的电脑替这个座位出牌", "away: the server's bot plays this seat until it comes back"],
    facts: ["本局", "This hand"],
    your_hand: ["你的手牌", "your hand"],
    hand_of_seat: ["{who} 的手牌 {n} 张", "{who}'s hand, {n} tiles"],
    discards_of: ["{who} 的弃牌", "{who}'s discards"],
    melds_of: ["{who} 的副露", "{who}'s melds"],
    your_melds: ["你的副露", "your melds"],
    your_discards: ["你的弃牌", "your discards"],
    last_discard: ["最后打出", "last discard"],
    claimed: ["被吃碰", "claimed"],
    timer_s: ["{s} 秒", "{s} s"],
    timer_bank: ["备用 {s} 秒", "bank {s} s"],
    timer_bank_only: ["备用时间 {s} 秒，之后电脑代打", "{s} s of the bank left, then the server's bot plays"],
    next_in: ["{s} 秒后下一局", "Next hand in {s} s"],
    watching: ["观战", "watching"],
    score: ["积分", "Score"],
    match_score: ["总分", "Match score"],
    // Actions (and the call-outs)
    act_discard: ["打", "Discard"],
    act_chow: ["吃", "Chow"],
    act_pung: ["碰", "Pung"],
    act_kong: ["杠", "Kong"],
    act_win: ["胡", "Win"],
    act_pass: ["过", "Pass"],
    act_declare: ["宣告", "Declare"],
    act_liu: ["溜", "Liu"],
    act_piao: ["飘", "Piao"],
    act_wai: ["歪", "Wai"],
    flag_liangdao: ["亮倒", "Declare ready"],
    flag_you_jin: ["游金", "Swimming gold"],
    flag_qiang_jin: ["抢金", "Rob the gold"],
    flag_ming_gang: ["明杠", "Exposed kong"],
    flag_tianhu: ["天胡", "Heavenly hand"],
    flag_concealed: ["暗杠", "Concealed kong"],
    flag_added: ["补杠", "Added kong"],
    flag_exposed: ["明杠", "Exposed kong"],
    // The result
    result_win: ["{who} 胡了", "{who} won"],
    result_wins: ["{who} 胡了", "{who} won"],
    result_drawn: ["流局", "Drawn hand"],
    result_drawn_text: ["牌摸完了，没有人胡", "The wall ran out with no win"],
    won_on: ["胡", "won on"],
    src_wall: ["自摸", "self-drawn"],
    src_replacement: ["杠上开花", "on a kong's replacement tile"],
    src_discard: ["点炮：{who}", "on {who}'s discard"],
    src_robbed_kong: ["抢杠：{who}", "robbing {who}'s kong"],
    src_discard_you: ["点炮：你", "on your discard"],
    src_robbed_kong_you: ["抢杠：你", "robbing your kong"],
    src_dealt: ["天胡（起手）", "on the deal"],
    src_turned_up: ["{who} 翻出的牌", "on the card {who} turned up"],
    src_turned_up_you: ["你翻出的牌", "on the card you turned up"],
    src_other: ["{src}", "{src}"],
    liable: ["包：{who} 一人全付", "包 liable: {who} pays for everyone"],
    reading: ["牌型", "Reading"],
    patterns: ["番种", "Patterns"],
    total: ["合计", "Total"],
    value_fan: ["{v} 番", "{v} fan"],
    value_factor: ["×{v}", "×{v}"],
    value_points: ["{v} 分", "{v} points"],
    count_fan: ["各番相加", "fan add up"],
    count_factor: ["各项相乘", "factors multiply"],
    capped: ["封顶", "capped"],
    amounts: ["点炮者付 {first}，其余每家付 {other}", "the discarder pays {first}, each of the others {other}"],
    amounts_each: ["其余每家付 {other}", "each of the others pays {other}"],
    wall_word: ["余牌", "wall"],
    count_points: ["各项相加", "points add up"],
    payments: ["结算", "Payments"],
    you_pay: ["你付给 {payee} {v}", "You pay {payee} {v}"],
    pays: ["{payer} 付给 {payee} {v}", "{payer} pays {payee} {v}"],
    liangdao_double: ["亮倒：点炮者赔双倍", "亮倒 declared ready: the discarder pays double"],
    other_money: ["杠钱及其他结算", "Kong money and other settlement"],
    net: ["本局", "This hand"],
    next_hand: ["下一局", "Next hand"],
    waiting_others: ["等待其他玩家", "Waiting for the others"],
    new_match: ["再来一场", "New match"],
    back_lobby: ["返回大厅", "Back to the lobby"],
    final_scores: ["最终积分", "Final scores"],
    winners_hand: ["胡牌手牌", "The winning hand"],
    // The replay viewer
    replay_title: ["回放", "Replay"],
    the_deal: ["发牌", "the deal"],
    action_n: ["第 {i} / {n} 步", "action {i} / {n}"],
    first: ["开始", "first"],
    back: ["后退", "back"],
    forward: ["前进", "forward"],
    last: ["结尾", "last"],
    hand_n: ["第 {n} 局", "hand {n}"],
    replay_loading: ["正在载入第 {n} 局……", "loading hand {n}..."],
    replay_failed: ["第 {n} 局载入失败，请再选一次", "hand {n} could not be loaded: pick it again"],
    to_act: ["轮到", "to act"],
  };
  const RULES = {
    guangdong: ["广东麻将", "Guangdong mahjong"],
    yunxiao: ["云霄麻将", "Yunxiao mahjong"],
    kawuxing: ["卡五星", "Kawuxing (Hubei)"],
    waihuzi: ["歪胡子", "Wai Huzi (zipai)"],
  };
  const WINDS = [["东", "East"], ["南", "South"], ["西", "West"], ["北", "North"]];
  const POSITIONS = { right: ["下家", "Right"], left: ["上家", "Left"], top: ["对家", "Across"] };
  const KEY = "hupai:lang";
  let language = null;

  function lang() {
    if (language) return language;
    let saved = null;
    try { saved = localStorage.getItem(KEY); } catch (e) { saved = null; }
    language = saved === "zh" || saved === "en" ? saved
      : (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
    return language;
  }

  function setLang(value) {
    language = value === "zh" ? "zh" : "en";
    try { localStorage.setItem(KEY, language); } catch (e) { /* private mode: this page only */ }
    document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  }

  const index = () => (lang() === "zh" ? 0 : 1);
  const fill = (text, vars) => text.replace(/\{(\w+)\}/g, (_, key) => (vars && key in vars ? String(vars[key]) : ""));

  // The words for ``key``, with {placeholders} filled from ``vars``; an unknown key reads as itself.
  function t(key, vars) {
    const entry = WORDS[key];
    return entry ? fill(entry[index()], vars) : key;
  }

  // Both languages at once ("碰 Pung"), for a tile's or a pattern's name where players learn the Chinese term.
  function both(key) {
    const entry = WORDS[key];
    return entry ? (entry[0] === entry[1] ? entry[0] : `${entry[0]} ${entry[1]}`) : key;
  }

  function rules(name) { const entry = RULES[name]; return entry ? entry[index()] : name; }
  function rulesBoth(name) { const entry = RULES[name]; return entry ? `${entry[0]} ${entry[1]}` : name; }
  function wind(n) { const entry = WINDS[n]; return entry ? entry[index()] : "?"; }
  function position(where) { const entry = POSITIONS[where]; return entry ? entry[index()] : where; }
  function has(key) { return key in WORDS; }

  return { t, both, has, lang, setLang, rules, rulesBoth, wind, position, WINDS };
})();

if (typeof window !== "undefined") window.HupaiText = HupaiText;
