// zh.go is the Simplified Chinese catalog: every interface string of the site in Simplified Chinese (zh-Hans).
// Lesson text lives in lessons/zh/, not here.

package i18n

import (
	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/sim/luacheck"
)

// chinese is the Simplified Chinese.
var chinese = &UI{
	SiteName: "Lock Lab", Tagline: "在实时运行 Redis 命令的时间线上学习分布式锁",
	LanguageMenu: "语言",
	Lessons:      "课程", LessonListIntro: "小鸡提问，企鹅老师解答。每个回答之后，你都要在时间线上亲手试一试：时间线上的客户端向 miniredis（用 Go 写的 Redis 兼容服务器）发送真实的 Redis 命令，并原样显示它的应答。",
	ReadIn: "用中文阅读",
	Chick:  "小鸡", Penguin: "企鹅老师", Step: "步骤", Of: "/",
	NextStep: "下一步", Undo: "撤销", Reset: "从头开始",
	BackToPath: "回到引导路线", OffPath: "你正在自由探索。引导路线停在第 {0} 步。",
	OffPathNone: "你已离开引导路线，正在自由探索。",
	Finished:    "你已经学完了这一课。", NextLesson: "下一课", PrevLesson: "上一课",
	StepsHeading: "引导步骤", Controls: "客户端现在可以做什么", TimeControls: "推进时间",
	Options: "变体", Apply: "应用", Timeline: "时间线",
	EventLog: "事件日志", Time: "时间", Who: "谁", Command: "命令", Reply: "应答", Note: "备注",
	You:          "你",
	TooManyTitle: "来自你的地址的请求过多",
	TooMany:      "这台服务器的探索器和课堂由所有使用者共享，你的地址暂时用完了自己的份额。请 {0} 秒后再试：你输入的内容都不会丢失。",
	CLI: &CLIUI{
		Title: "你的命令行",
		Hint:  "以你自己的身份，在时间线的这一刻，向{0}发送一条真实的 Redis 命令，比如 {1}。它和其他操作一样：会记录在地址里，可以用“撤销”收回，检查器也能看到它的效果。",
		ToOne: "客户端所用的同一台服务器", ToMany: "客户端所用的某一台服务器（在“发送到”里选择）",
		ToStorage: "存储（这里运行的 Redis 只有它）",
		Label:     "命令", SendTo: "发送到", Send: "发送",
		ModelNote:   "这一课的锁服务是一个模型：背后没有真正运行的服务器，所以无法向它输入命令。存储是真实的 Redis，可以接收命令。",
		HistoryHint: "用上下方向键可以调出在这条时间线上输入过的命令。",
		Bounds:      "这里的 Redis 像公开网站上的 Redis 那样设得很小：单个值最多 {0}，一台服务器保存的键和值合计最多 {1}。超出后 Redis 会返回它自己的错误，和这样配置的任何 Redis 一样。",
		ValueNote:   "Lock Lab 的 Redis 把单个值限制在 1 MB 以内（proto-max-bulk-len）",
		MemoryNote:  "这台服务器已达到 Lock Lab 的 Redis 能保存的上限（maxmemory，约 1 MB）：DEL 掉一个大键后才能再写入",
	},
	Now: "现在", Lock: "Redis", Storage: "存储", TTLLeft: "剩余 {0}", Since: "自 {0} 起", Expired: "已过期",
	DeletedBy: "被 {0} 删除", Token: "令牌 {0}", Accepted: "已接受", Rejected: "已拒绝",
	Violations: "出了什么问题", Scripts: "用到的 Lua 脚本", Legend: "图例", Paused: "停顿中", Working: "工作中", Crashed: "已崩溃", OpenJSON: "以 JSON 查看时间线", Home: "全部课程", SkipToLab: "跳到时间线", Client: "客户端 {0}",
	ErrorTitle: "出了点问题", NotFound: "页面不存在",
	NotFoundText: "这个地址没有页面。可以从课程列表重新开始。",
	BadRequest:   "这条时间线无法重放", BadRequestHint: "在那之前的部分仍然可以运行：",
	LastGood: "打开时间线，停在最后一个可执行的操作", StartOver: "重新开始这一课",
	InternalText:   "服务器自身出了问题。刷新页面通常就能解决；时间线保存在地址里，什么都不会丢失。",
	URITooLong:     "这个链接太长，无法打开：一条时间线最多包含 {0} 个操作，本站的链接也不会超过 {1} KB。它可能被粘贴了两次，或者被截断后拼错了。",
	URITooLongBack: "不带时间线打开此页面",
	UnknownHost:    "本服务器不响应地址“{0}”。请用老师或团队给你的地址打开 Lock Lab。",
	BadQueryTitle:  "这个链接无法读取",
	BadQuery:       "这个链接“?”后面的部分里，% 后面没有跟两位十六进制数字：“{0}”。链接可能在传递途中被截断或改动了。",
	BadQuerySemi:   "这个链接的参数用“;”分隔，而 Lock Lab 用“&”分隔参数：“{0}”。",
	FixedLink:      "打开把 ; 改成 & 之后的链接",
	WrongMethod:    "这个地址只响应 GET 请求。", HeaderTooLarge: "请求头过大（常见原因是这个地址的 Cookie 太多或太大）。请清除本站的 Cookie 后重试。",
	Busy:      "服务器正忙于重放其他时间线。请稍后再打开同一个链接；什么都不会丢失。",
	RedisDown: "这台服务器在真实的 Redis 上运行课程，而这个 Redis 现在没有响应。等它恢复后再打开同一个链接即可；时间线保存在地址里，什么都不会丢失。",
	Share:     "分享这一刻", ShareHint: "用手机扫码，即可打开处于同一状态的这条时间线；也可以复制链接分享。",
	ShareDesign: "分享这个设计", ShareDesignHint: "用手机扫码，即可打开这个设计及其评分结果；也可以复制链接分享。",
	ResumeOffer:   "你上次学到第 {0} 步“{1}”。从那里继续 →",
	ShareLoopback: "这个链接和二维码指向 {0}（这台电脑自己的地址），只能在这台电脑上打开。要分享，请用 -public-url 指定别人能访问的地址来启动 Lock Lab。",
	Menu:          "菜单",
	Play:          "▶ 播放", Pause: "❚❚ 暂停", Speed: "速度", Theme: "主题", ThemeAuto: "跟随系统", ThemeDark: "深色", ThemeLight: "浅色", Presenter: "演示模式", NextLine: "下一句（还有 {0} 句）", Help: "键盘快捷键", Close: "关闭",
	Shortcuts: [][2]string{{"n", "下一步（演示模式下先显示下一句台词）"}, {"→ PageDown Space", "演示模式下与 n 相同（翻页笔发送的就是这些键）"},
		{"← PageUp", "演示模式下先收回一句台词，没有可收回的就退回一步"}, {"u", "撤销上一个操作"},
		{"p", "播放 / 暂停时间"}, {"f", "打开 / 关闭演示模式"}, {"t", "浅色 / 深色 / 自动主题"},
		{"l", "切换语言"}, {"1–3", "用对应编号的选项回答屏幕上的小测验"}, {"?", "显示本帮助"}},
	ExpiredAt:  "{0} 的锁已过期",
	TTLLegend:  "锁的剩余 TTL",
	TokenKeyIs: "存储记录的令牌：{0}", NoTokenYet: "尚无令牌",
	NodeControls: "节点可以做什么", Model: "模型", Refused: "未送达（连不上该节点）",
	NoTTL: "无 TTL（PTTL -1）", Overwritten: "被 {0} 覆盖", LostData: "随节点的数据一起丢失",
	ValidUntil: "有效期至 {0}", ValidEnded: "有效期已于 {0} 结束", Charges: "扣款：{0}", LostReply: "应答丢失：{0} 没有收到",
	ReplyCut: "只显示一部分：{1} 字节中的前 {0} 字节", ElemsCut: "只显示一部分：{1} 个元素中的前 {0} 个",
	LongValue: "一个 {0} 字节的值（见事件日志）", LongArray: "{0} 个元素（见事件日志）",
	Down: "已断开", ClockAhead: "时钟 +{0}", SlowBy: "变慢 {0}", PrimaryRole: "主节点", ReplicaRole: "副本",
	NoCheck:     "不检查令牌",
	AlreadyPaid: "已支付：不再扣款", ChargedTwiceBy: "重复扣款：{0} 对订单 42 扣了两次款。",
	Review:          "复习",
	CounterTitle:    "实验室找到的反例",
	CounterIntro:    "这是实验室的探索器针对“变体”中显示的设计找到的调度顺序。它不是这一课的步骤：这里在同一个模拟器上、用真实的 Redis 应答重放它，你可以仔细查看，也可以从这里接着自己操作。",
	CounterSchedule: "调度顺序（逐个操作）", CounterBroke: "出了什么问题，在什么时候",
	CounterAllowedTitle: "实验室找到的调度顺序", CounterHappened: "发生了什么，在什么时候",
	CounterNone: "这次重放中没有出任何问题。", CounterWhen: "{0}，操作 {1} 进行中：{2}",
	CounterBack: "返回实验室结果", CounterGuided: "按引导路线开始这一课",
	NodeName: map[string]string{"primary": "主节点", "replica": "副本", "zookeeper": "ZooKeeper", "etcd": "etcd", "link": "复制链路",
		"promoted": "已提升的副本"},
	OptionValue: map[string]string{
		"release.lua": "用比较并删除（Lua）释放锁", "release.del": "用普通 DEL 释放锁",
		"release.getdel": "先 GET 再 DEL（两条命令）", "release.delex": "DELEX … IFEQ 值（Redis 8.4 及以上）",
		"fence.on": "存储检查令牌", "fence.off": "存储忽略令牌",
		"fence.strict":  "存储只接受更大的令牌（重试也会被拒绝）",
		"fence.twostep": "存储用两条命令检查令牌（先 GET 再 MSET）",
		"check.none":    "客户端不确认就直接写入", "check.get": "客户端写入前先用 GET 确认锁是否还是自己的",
		"value.unique": "每次加锁使用新的随机值", "value.host": "用主机名作为值",
		"work.short": "任务耗时 1 秒", "work.long": "任务耗时 15 秒（比 TTL 长）",
		"acquire.set": "SET … NX PX（一条命令）", "acquire.getset": "先 GET 再 SET（两条命令）",
		"acquire.setnx": "先 SETNX 再 PEXPIRE（两条命令）",
		"ttl.on":        "带 TTL（PX 10000）", "ttl.off": "无 TTL",
		"lock.redis": "两台服务器共用一个 Redis 键", "lock.local": "每台服务器内部的互斥锁（模型）",
		"idem.key": "幂等键（只扣一次款）", "idem.none": "无幂等键",
		"persist.fsync": "重启后键仍在（appendfsync always）", "persist.none": "重启后键丢失（无持久化）",
		"wait.on": "加锁后用 WAIT 等待副本", "wait.off": "立即信任主节点的 OK",
		"svc.zk": "ZooKeeper（模型）", "svc.etcd": "etcd（模型）",
	},
	KindNote: map[sim.Kind]string{
		sim.KindLocal: "获取了进程内的互斥锁（其他服务器看不到它）", sim.KindLocalUnlock: "释放了进程内的互斥锁",
		sim.KindDrop: "下一条命令的应答会被网络丢掉", sim.KindGiveUp: "放弃了（只尝试一次）",
	},
	DropWriteNote: "下一次存储写入的应答会被网络丢掉",
	Predict:       "先预测", Reveal: "揭晓答案", SkipPredict: "跳过这道小测验", AnswerBelow: "回答小测验",
	YouPredicted: "你的预测是“{0}”。", Right: "正确", Wrong: "不太对",
	TheAnswer: "正确答案是“{0}”。", CheckpointAnswer: "小测验的答案",
	LessonJSON: "以 JSON 查看本课", DownloadSVG: "将时间线下载为 SVG（用于幻灯片）", DownloadJSON: "下载 JSON", ShareQR: "本页地址的二维码", QRTooLong: "这条时间线的地址太长，放不进二维码；请改为分享链接。", DoneLabel: "已完成", ContinueLabel: "从上次的地方继续", ResumeLabel: "继续：第 {0} 课第 {1} 步 — {2}",
	OptionLabel: map[string]string{"release": "释放方式", "fence": "围栏检查", "acquire": "加锁方式", "ttl": "TTL",
		"lock": "锁", "idem": "扣款", "persist": "持久化", "wait": "复制", "svc": "服务", "work": "任务",
		"check": "写入前的确认", "value": "锁的值"},
	ViolationText: map[sim.ViolationKind]string{
		sim.StaleWrite:                    "接受了陈旧写入：{1} 后拿到锁，{0} 的写入却落在 {1} 的写入之后。较新的结果丢失了。",
		sim.DoubleCharge:                  "重复扣款：订单 42 先被 {1} 扣了款，又被 {0} 扣了一次。",
		sim.DoubleWrite:                   "两个持有者都写入了：在两份租约都有效时，存储先接受了 {1} 的写入，又接受了 {0} 的写入，这项工作做了两次。",
		sim.RepeatedWrite:                 "同一写入执行了两次：应答丢失后，{0} 用同一个令牌重发了写入，存储又接受了一次，于是总数把这项任务算了两次。",
		sim.TwoHolders:                    "同时有两个持有者：{1} 的租约还没到期，{0} 就获取了锁。",
		"two-holders/no-ttl":              "同时有两个持有者：{1} 还持有锁，{0} 就获取了锁；{1} 的键没有 TTL，它的持有永远不会到期。",
		"two-holders/mutex":               "同时有两个持有者：{1} 持有自己的互斥锁时，{0} 也拿到了自己的互斥锁；两台服务器的互斥锁彼此看不见。",
		"two-holders/validity":            "同时有两个持有者：{1} 的 Redlock 有效期还没结束，{0} 就获取了锁。",
		"two-holders/session":             "同时有两个持有者：{1} 的 ZooKeeper 会话还活着，{0} 就获取了锁。",
		"two-holders/lease":               "同时有两个持有者：{1} 的 etcd 租约还活着，{0} 就获取了锁。",
		"two-holders/renewed":             "同时有两个持有者：{1} 的租约还没到期，{0} 就续期了锁。",
		sim.ForeignDelete:                 "删除了别人的锁：{0} 删除了 {1} 持有的锁。",
		"foreign-delete/deleted":          "删除了别人的锁：{0} 删除了 {1} 持有的锁。",
		"foreign-delete/replaced":         "删除了别人的锁：{1} 持有锁时，{0} 把锁键改成了另一个值。",
		"foreign-delete/hand/deleted":     "删除了别人的锁：{1} 仍持有锁时，你手动删除了它。",
		"foreign-delete/hand/replaced":    "删除了别人的锁：{1} 仍持有锁时，你手动把锁键改成了另一个值。",
		"foreign-delete/of-hand/deleted":  "删除了别人的锁：{0} 删除了锁键上不是它自己设置的值（那是你手动设置的）。",
		"foreign-delete/of-hand/replaced": "删除了别人的锁：{0} 把你手动设置在锁键上的值改成了另一个值。",
		"foreign-delete/hand/shortened":   "删除了别人的锁：你手动设置的 TTL 比 {1} 自己计算的租约先到期，锁键在 {1} 仍持有锁时过期了。",
		sim.NotReleased:                   "{0} 释放了锁，但锁键里仍然是它的值。",
		sim.Orphan:                        "永久锁死：{0} 崩溃了，而它的键没有 TTL；只有有人手动删除这个键，这把锁才会结束。",
		sim.LingeringLock:                 "崩溃后锁长时间不释放：{0} 崩溃了，而服务器保留它的键的时间超过了 {0} 所要求 TTL 的两倍。在它过期之前，谁都拿不到锁。",
		sim.LeaseOverrun:                  "任务超出了租约：{1} 还在工作时，它的租约已到期，{0} 获取了锁。其间没有任何停顿：任务比租约长，而且没有续期。",
		"lease-overrun/validity":          "任务超出了租约：{1} 还在工作时，它的 Redlock 有效期已到，{0} 获取了锁。其间没有任何停顿：任务比有效期长。",
		sim.LockRefused:                   "无人持有却拒绝加锁：没有人持有锁，{0} 的加锁却被拒绝了。谁都拿不到的锁，不算一把能用的锁。",
		sim.WriteRefused:                  "无故拒绝写入：{0} 是最新的持有者，租约也有效，存储却拒绝了它的写入。没有更新的持有者需要保护，这次工作白做了。",
		sim.ScriptError:                   "脚本出错：{0} 的脚本在运行时失败了；Redis 返回的错误在它那一行。",
		"script-error/acquire":            "脚本出错：{0} 的加锁脚本在运行时失败了；Redis 返回的错误在它那一行。",
		"script-error/release":            "脚本出错：{0} 的释放脚本在运行时失败了；Redis 返回的错误在它那一行。",
		"script-error/extend":             "脚本出错：{0} 的续期脚本在运行时失败了；Redis 返回的错误在它那一行。",
		"script-error/write":              "脚本出错：{0} 的写入脚本在运行时失败了；Redis 返回的错误在它那一行。",
		"orphan/ended":                    "永久锁死（后来被解除）：{0} 崩溃了，它的键没有 TTL；这把锁一直留着，直到 {1} 在 {2} 删除了这个键。",
		"orphan/ended/ttl":                "永久锁死（后来被解除）：{0} 崩溃了，它的键没有 TTL；这把锁一直留着，直到 {1} 在 {2} 给这个键设了 TTL。",
		sim.Overlap:                       "失去互斥：{1} 的租约到期后，{0} 获取了锁，而 {1} 仍把自己当作持有者。",
		"overlap/validity":                "失去互斥：{1} 的 Redlock 有效期结束后，{0} 获取了锁，而 {1} 仍把自己当作持有者。",
		"overlap/session":                 "失去互斥：{1} 的 ZooKeeper 会话过期后，{0} 获取了锁，而 {1} 仍把自己当作持有者。",
		"overlap/lease":                   "失去互斥：{1} 的 etcd 租约过期后，{0} 获取了锁，而 {1} 仍把自己当作持有者。",
		"overlap+paused":                  "{1} 当时处于停顿中，无法察觉。",
		"overlap+cut-off":                 "{1} 与服务的连接已断开，重新连上之前无从得知。",
		"overlap+unaware":                 "{1} 一直在运行；按它自己的计时，持有期已经结束，它本可以察觉并停下。",
		sim.LateWrite:                     "接受了迟到的写入：{0} 的租约已经到期，存储却接受了它的写入。",
		"late-write/validity":             "接受了迟到的写入：{0} 的 Redlock 有效期已经结束，存储却接受了它的写入。",
		"late-write/session":              "接受了迟到的写入：{0} 的 ZooKeeper 会话已经过期，存储却接受了它的写入。",
		"late-write/lease":                "接受了迟到的写入：{0} 的 etcd 租约已经过期，存储却接受了它的写入。",
		"late-write+none":                 "到期之后没有人再获取锁，所以没有较新的结果被覆盖。",
		"late-write+newer":                "到期之后 {1} 获取了锁，但 {1} 当时还没有写入，所以这次没有覆盖掉更新的结果。",
		"late-write+newer-wrote":          "到期之后 {1} 获取了锁，而且 {1} 已经先写入过；这次写入是累加到总数上的，所以两次都算数，没有丢失任何结果。",
	},
	Failures: map[sim.ViolationKind]Failure{
		sim.StaleWrite:    {"接受了陈旧写入", "存储接受了较新持有者的写入之后，又接受了较旧持有者的写入：数据倒退回了过去，较新的结果丢失了。"},
		sim.DoubleCharge:  {"重复扣款", "订单被扣款不止一次。"},
		sim.DoubleWrite:   {"两个持有者都写入了", "两个租约都有效的客户端，写入都按发放锁的顺序被接受了：记录里留下的是较新的那个，但本该只做一次的工作做了两次。"},
		sim.RepeatedWrite: {"同一写入执行了两次", "存储把一次加锁的写入接受了两次：应答丢失后，客户端用同一个令牌重发了写入，而这个写入是累加到总数上的，所以任务被算了两次。"},
		sim.TwoHolders:    {"同时有两个持有者", "另一个客户端的持有（租约、没有 TTL 的键、它自己的互斥锁、会话）还没结束，某个客户端就获取或续期了锁：锁本身失效了。"},
		sim.ForeignDelete: {"删除了别人的锁", "一次释放、续期或手动输入的命令，删除或替换了另一个客户端仍持有的锁。"},
		sim.NotReleased:   {"释放后锁仍在", "释放执行之后，键里仍然是执行释放的那个客户端的值。"},
		sim.Orphan:        {"永久锁死", "客户端持有一个没有 TTL 的键时崩溃了：除非有人手动删除，这个键会一直留着。"},
		sim.LingeringLock: {"崩溃后锁长时间不释放", "客户端崩溃了，而服务器保留它的键的时间超过了该客户端所要求 TTL 的两倍：TTL 的单位写错了，或者脚本里写死了一个数。每次崩溃都会让锁被占住这么久。"},
		sim.LeaseOverrun:  {"任务超出了租约", "另一个客户端还在工作时它的租约就到期了，锁被别人拿走：没有停顿，也没有崩溃——任务比租约长，而且没有续期。这个任务每次运行都会这样，所以是设计的失败（让租约长于最慢的任务，或在工作期间续期）。"},
		sim.LockRefused:   {"无人持有却拒绝加锁", "没有人持有锁（没有客户端在锁内，也没有崩溃的持有者留下的键），加锁却被拒绝：这把锁再安全也拿不到。"},
		sim.WriteRefused:  {"无故拒绝写入", "存储拒绝了最新持有者在租约有效时的写入：没有更新的持有者需要这次拒绝来保护，工作就这样丢了。"},
		sim.ScriptError:   {"脚本出错", "设计中的某个脚本在运行时失败了：Redis 返回了错误（在那次调用的那一行）。客户端分不清错误和拒绝，而两者都不是脚本的本意。"},
		sim.Overlap:       {"失去互斥", "另一个客户端的租约到期后，某个客户端获取了锁，而前者仍把自己当作持有者（它处于停顿中、与服务断开了连接，或者超过了自己的计时仍在运行）。任何会自行过期的锁（TTL、会话或租约）都可能出现这种情况；要让它无害，得靠存储端的检查。"},
		sim.LateWrite:     {"接受了迟到的写入", "租约已到期的客户端的写入被存储接受了，但没有更新的结果因此丢失：当时可能还没有新的持有者，可能新的持有者还没写入，也可能写入是累加到总数上的，两次都算数。只有当较新的令牌已经到达存储之后，围栏检查才能拒绝这样的写入。"},
	},
	Verdict: &VerdictUI{
		ClassCol: "严重程度", ClassNote: "（{0}）",
		Class:  map[sim.Class]string{sim.ClassHarm: "数据受损", sim.ClassBroken: "锁失效", sim.ClassAllowed: "任何租约都可能出现"},
		Harm:   "发现了危害：{0}。受保护的数据出错了；每一行都能打开展示这个问题的最短调度顺序。",
		Broken: "没有发现数据受损，但锁本身失效了：{0}。",
		Allowed: "数据没有受损，锁也没有失效。表中列出的是任何会自行过期的锁（TTL、会话或租约）都允许的情况——持有者在租约到期后仍在行动——" +
			"而在这里，它做的事没有造成任何问题。",
		None:    "没有出任何问题：没有危害，锁没有失效，也没有持有者在租约到期后仍在行动。",
		Unknown: "在最多 {0} 个操作的所有调度顺序中，既没有危害，锁也没有失效；更长的调度顺序没有全部探索。",
		Within:  "这个结论只在这些范围内成立——它不是证明。更长的调度顺序、其他故障或不同的时机，仍然可能让它出问题。",
	},
	ErrorText: map[sim.Code]string{
		sim.CodeSyntax:         "“{0}”不是一个操作。操作的写法类似 a.acquire 或 wait.10s。",
		sim.CodeUnknownVerb:    "“{0}”：没有这个操作。客户端可以执行 {2}；在有节点的课程里，节点可以执行 {3}；wait 用来推进时间。",
		sim.CodeNotOffered:     "“{0}”：这一课不提供 {9}。这里客户端可以执行 {10}；wait 用来推进时间。",
		sim.CodeCmdSyntax:      "“{0}”不是 redis-cli 能读懂的命令：请检查引号。带引号的参数以闭合引号结束，后面必须跟空格或行尾。",
		sim.CodeCmdTooLong:     "“{0}”对命令行来说太长了：最多 16 个参数，总共不超过 512 字节。",
		sim.CodeCmdBlocking:    "{1} 可能会一直等待下去，所以命令行不发送它：这里的每条命令都会立即应答。",
		sim.CodeCmdMode:        "{1} 会让连接停留在一种特殊模式中（事务、订阅、另一个数据库），所以命令行不发送它。",
		sim.CodeCmdAdmin:       "{1} 用于管理服务器本身，所以命令行不发送它。",
		sim.CodeCmdNotOffered:  "命令行不发送 {1}。它能发送的是：键的读、写和删除（GET、SET、DEL、MGET 等）、TTL（PTTL、TTL、PEXPIRE、PERSIST）、计数器、列表，以及执行简单脚本的 EVAL。",
		sim.CodeCmdScript:      "“{0}”：在这里输入的脚本必须是设计页面能接受的脚本：不能有循环或函数，键只能写成 KEYS[i]，总长不超过 2 KB，每个参数不超过 256 字节。",
		sim.CodeCmdNode:        "“{0}”：这一课里没有可以发送到的 Redis 服务器 {1}。",
		CodeRepeated:           "地址里出现了不止一次“{0}=”。时间线链接只有一个 do=，opt= 最多一个。",
		sim.CodeUnknownClient:  "“{0}”：这一课没有客户端 {1}。",
		sim.CodeBadDuration:    "“{0}”：{8} 需要带一个 1ms 到 {4} 之间的整数时长，比如 wait.500ms 或 wait.10s；其他操作不带时长。",
		sim.CodeTooMany:        "一条时间线最多包含 {5} 个操作。",
		sim.CodeTooLong:        "地址太长，无法作为时间线。",
		sim.CodePaused:         "“{0}”：{1} 正处于停顿中。停顿中的客户端只能恢复（或崩溃）。",
		sim.CodeCrashed:        "“{0}”：{1} 已崩溃，不会再做任何事。",
		sim.CodeNotPaused:      "“{0}”：{1} 没有处于停顿中。",
		sim.CodeNotHolding:     "“{0}”：{1} 没有获取锁。",
		sim.CodeBusy:           "“{0}”：{1} 已经持有锁，或正在尝试获取锁。",
		sim.CodeTimeLimit:      "“{0}”：时间线会变得太长（虚拟时间最多 {6} 小时，事件最多 {7} 个）。",
		sim.CodeUnknownOption:  "“{0}”不是这一课的变体。",
		sim.CodeBadOption:      "“{0}”：这个变体没有这个取值。",
		sim.CodeUnknownScene:   "找不到这一课的场景。",
		sim.CodePending:        "“{0}”：{1} 停在两条命令之间；它只能继续、停顿或崩溃。",
		sim.CodeNothingPending: "“{0}”：{1} 没有停在两条命令之间。",
		sim.CodeUnknownNode:    "“{0}”：这一课没有这个节点。",
		sim.CodeNodeState:      "“{0}”：在节点或客户端当前的状态下无法执行。",
		sim.CodeTooSlow:        "“{0}”：这条时间线重放耗时太长；请换一条短一些的。",
		sim.CodeTooBig:         "第 {12} 个操作（“{0}”）会让一台服务器为这条时间线读出或复制的数据累计超过 {11}（单个值最多 1 MB），超出了 Lock Lab 重放一个链接时的上限。",
	},
	Believes: "自以为持有",
	StateName: map[sim.State]string{
		sim.StateIdle: "空闲", sim.StateTrying: "正在获取锁", sim.StateHolding: "持有中",
		sim.StateWorking: "工作中", sim.StatePaused: "停顿中", sim.StateCrashed: "已崩溃",
		sim.StateChecking: "读到锁空闲", sim.StateWaiting: "等待副本",
	},
	Purpose: map[string]string{
		"acquire": "尝试获取锁", "retry": "重试", "token": "围栏令牌", "write": "写入", "release": "释放锁",
		"check": "检查", "expire": "设置 TTL", "extend": "续期", "unlock": "在所有节点上解锁",
		"replicate": "复制更改", "wait": "等待副本", "session": "会话",
		"watch": "监听", "notify": "监听触发", "reconnect": "重新连接", "disconnect": "连接断开",
		"timeout": "超时：整个超时时间内没有收到任何消息",
		"ttl":     "还剩多久？", "ttl-1": "-1：键存在，但没有过期时间", "ttl-2": "-2：没有这个键",
		"stillmine": "还是我的吗？", "lasttoken": "读取存储记录的令牌",
	},
	Verb: map[string]string{
		sim.VerbAcquire:                       "获取锁",
		sim.VerbNext:                          "继续：{0}",
		sim.VerbWrite:                         "工作并写入",
		sim.VerbExtend:                        "续期",
		sim.VerbTTL:                           "查询 PTTL",
		sim.VerbRelease:                       "释放锁",
		sim.VerbPause:                         "停顿",
		sim.VerbResume:                        "恢复",
		sim.VerbDisconnect:                    "断开连接",
		sim.VerbReconnect:                     "重新连接",
		sim.VerbDrop:                          "丢失下一个应答",
		sim.VerbCrash:                         "崩溃",
		sim.NodeDown:                          "断开",
		sim.NodeDown + "/" + sim.NodeLostData: "崩溃",
		sim.NodeUp:                            "重新连上",
		sim.NodeUp + "/" + sim.NodeLostData:   "恢复运行",
		sim.NodeRestart:                       "重启",
		sim.NodeJump:                          "时钟 +{0}",
		sim.NodeSlow:                          "变慢 {0}",
		sim.NodePromote:                       "提升",
		sim.VerbWait:                          "等待 {0}",
	},
	NodeNote: map[string]string{
		sim.NodeDown:                          "{0} 断开了：谁也连不上它（键仍保留）",
		sim.NodeUp:                            "{0} 又能连上了，数据原样还在",
		sim.NodeDown + "/" + sim.NodeLostData: "{0} 崩溃了：内存里的数据都没了",
		sim.NodeUp + "/" + sim.NodeLostData:   "{0} 恢复了，但里面是空的（没有做持久化）",
		sim.NodeRestart:                       "{0} 重启了",
		sim.NodeJump:                          "{0} 的时钟向前跳了 {1}",
		sim.NodeSlow:                          "发往 {0} 的每条命令现在要花 {1}",
		sim.NodePromote:                       "{0} 成为主节点",
	},
	Lab: &LabUI{
		Title:    "实验室",
		HomeHint: "选择一种锁的设计和故障预算；探索器会在你设定的范围内尝试每一种调度顺序，并展示让它出问题的最短路径。",
		Intro: "选择一种锁的设计和故障预算。探索器会在你设定的范围内，尝试客户端命令与故障可能发生的每一种顺序，" +
			"每一种都运行在和课程相同的模拟器上：go-redis 客户端向 miniredis 发送真实的命令，并使用它的应答。" +
			"它会报告哪里出了问题，以及出问题的最短路径。",
		WhatElse:     "还可能出什么问题？",
		WhatElseHint: "让探索器尝试这个设计的每一种调度顺序。",
		LessonLegend: "从某一课开始", LessonLabel: "课程", Load: "载入它的设计",
		DesignLegend: "设计", ClientsLegend: "客户端", ClientsN: "{0} 个客户端",
		FaultsLegend: "故障预算", Pauses: "停顿（客户端冻结，时间继续流逝）",
		PauseLengths: "每次停顿的时长（最多 {0} 种）", Crashes: "客户端崩溃", NodeFaults: "节点故障（{0}）",
		Drops: "丢失的应答", BoundsLegend: "范围", Depth: "每个调度顺序最多包含的操作数", Explore: "开始探索",
		FixedNote: "由课程固定：{0}。",
		Fixed: map[string]string{"ttl": "锁的 TTL 为 {0}", "no-ttl": "没有 TTL", "mutex": "每台服务器内各自的互斥锁（没有 TTL）",
			"session": "ZooKeeper 会话超时 {0}", "lease": "etcd 租约 TTL 为 {0}", "work": "每次写入前工作 {0}",
			"retry": "每隔 {0} 重试一次", "once": "每个客户端只尝试一次"},
		ShortestAllowed: "能展示它的最短步骤：{0} 步（{1}：无论是 TTL、会话还是租约，任何会自行过期的锁都会允许它发生，本身并不算失败）。",
		Limits: map[string]string{
			"failover": "这个模型只有一个副本，链路在 2 秒后送达。副本有多个时 WAIT 排除不了的情况（拿到键的副本如果当时连不上，或者因优先级设置排在后面，被提升的就可能是没拿到键的那一个），这里无法演示；这正是课程称这种设计“更安全，但不等于安全”的原因。",
		},
		ResultTitle: "探索器的发现",
		Explored:    "探索了 {0} 个调度顺序（{1} 个不同的状态）。",
		Shortest:    "最短反例（数据受损或锁失效）：{0} 步（{1}）。任何租约都可能出现的那几行可能更短。",
		NoneFound:   "没有任何调度顺序触发检查所关注的问题。",
		Complete:    "这些范围内的所有调度顺序都已探索。",
		CompleteCut: "最多 {0} 个操作的所有调度顺序都已探索。有些调度顺序还会继续下去，在那里被截断了：提高上限可以看得更远。",
		Incomplete: "未完成：探索器还没看完所有调度顺序，就用完了 {0} 个不同状态的预算。" +
			"最多 {1} 个操作的调度顺序都看过了，{2} 个操作的只看了一部分。找到的问题是真实的；没找到并不说明没有问题。" +
			"要得到完整的答案，请减少每个调度顺序的操作数，或者减少故障预算。",
		Busy: "这次探索没能在 {0} 秒内完成：此前已到达 {1} 个不同状态，并看过了最多 {2} 个操作的全部调度顺序。" +
			"因时间限制而中断的搜索不能给出结论（它看到了什么取决于服务器当时有多忙），所以这里不显示结论。" +
			"服务器空闲时，这个表单提供的所有范围都能按时完成；最大的范围（Redlock 上 3 个客户端、每种故障 2 次、20 个操作）需要几秒钟。" +
			"想马上得到答案，请减少故障预算或每个调度顺序的操作数；否则请稍后再打开同一个链接。",
		Budget:  "单次探索的预算：最多 {0} 个不同状态，每个调度顺序最多 {1} 个操作；如果服务器太忙，无法在 {2} 秒内完成，会如实说明，不给出结论。",
		KindCol: "问题", MeaningCol: "含义", SchedulesCol: "调度顺序数", ShortestCol: "最短",
		OpenTimeline: "在时间线中打开", StepsOf: "{0} 步",
		CodeTitle:   "这个设计的 Go 代码（go-redis）",
		CodeNote:    "模拟客户端发送的命令，写成 Go 程序发送它们的样子。线路上只有一处不同：整秒的 TTL，go-redis 写成 EX 10，而模拟客户端发送的是 PX 10000，过期时间相同。测试套件会针对 miniredis、按课程中的调度顺序运行这里展示的每一个变体，并检查它发送的命令与模拟客户端一致（比较时把 EX 读作 PX）。",
		NoCode:      "这一课的锁位于一个建模的服务（ZooKeeper 或 etcd）中，而不在 Redis 里，所以没有 go-redis 代码可以展示。存储的围栏检查与第 5 课相同。",
		BoundsTitle: "范围的含义",
		BoundsText: "每个客户端只运行一次它的程序：获取锁，工作并写入，释放锁。只有在客户端工作时，以及在你允许的停顿期间，时间才会流逝；" +
			"一次停顿就是：客户端冻结，等待一段停顿时长，客户端恢复。" +
			"到达相同状态（相同的键、TTL、客户端和定时器）的两个调度顺序只探索一次；" +
			"只是客户端互换了身份的调度顺序，也只探索一次。",
		ModelNote:  "每个调度顺序都通过 go-redis 客户端，在内嵌的 miniredis 服务器上以虚拟时间重放。与课程中一样，停顿、崩溃和节点故障都是模型。",
		BadTitle:   "实验室无法运行这个设置",
		BadParam:   "“{0}”不是实验室能理解的 {1} 取值。",
		BadLesson:  "没有“{0}”这一课。",
		BadRange:   "{0} 必须在 {1} 到 {2} 之间。",
		BadOnly:    "这一课只允许 {0}={1}。",
		BadLengths: "请为停顿选择至少一种、最多 {0} 种时长。",
	},
	Class: &ClassUI{
		TeachLive: "从这一步开课",
		TeachHint: "从这一步开始一堂课：学生在自己的手机上跟随你的操作，并在你揭晓答案之前回答每个小测验。",
		BarLabel:  "现场课堂",
		JoinAt:    "学生加入地址",
		CodeLabel: "课堂代码",
		QRAlt:     "学生加入本课堂的地址的二维码",
		Connected: "{0} 人已连接",
		ConnectedHint: "在屏幕上打开着本课堂的学生人数，每人只计一次。" +
			"不运行 JavaScript 的页面，在最后一次加载后的 {0} 分钟内计入。",
		Answers:      "{0} 人已作答",
		Votes:        "{0} 票",
		Vote:         "{0} 票",
		Mine:         "（你的答案）",
		CorrectNote:  "（正确答案）",
		NextQ:        "下一题",
		RevealBtn:    "揭晓答案",
		EndBtn:       "结束课堂",
		ClassSees:    "学生看到的是第 {0} 步：{1}",
		ClassOff:     "学生看到的是你的时间线（已离开引导路线）。",
		NoQuestion:   "当前没有开放的小测验。到达带小测验的步骤时，学生的答案会显示在这里。",
		ShowClass:    "把这一步展示给学生",
		JoinTitle:    "加入课堂",
		JoinIntro:    "输入老师展示的代码：8 位字母和数字。",
		JoinButton:   "加入",
		WaitingStart: "课堂还没有开始：老师点击“开始上课”后，这个页面就会跟着老师的画面。",
		Following:    "现场课堂 {0}：你看到的是老师正在展示的内容。",
		Refresh:      "刷新",
		RefreshHint: "页面打开期间会自动跟随老师。" +
			"如果它停住了，或者你的浏览器不运行脚本，请点击“刷新”。",
		Explore:         "从这里自己探索",
		ExploreHint:     "（在新标签页中把这一刻作为普通课程打开，自己动手试）",
		Question:        "你的预测",
		SendAnswer:      "提交我的答案",
		YourAnswer:      "你的答案：",
		Waiting:         "请等待老师揭晓答案。",
		ClassVoted:      "全班的作答",
		NoAnswer:        "你没有回答这道题。",
		Closed:          "这道题的答案已经揭晓，作答已截止。",
		LiveOn:          "直播中",
		LiveOff:         "正在重新连接……",
		Ended:           "课堂已结束。",
		EndedTitle:      "这堂课已结束",
		EndedText:       "老师结束了这堂课。课程仍然在这里：从课堂停下的那一步开始，自己继续吧。",
		EndedGoOn:       "从课堂停下的地方继续",
		NoRoomTitle:     "没有使用这个代码的课堂",
		NoRoomText:      "代码可能输错了，或者课堂已经结束。请核对老师展示的代码后重试。",
		FullTitle:       "这堂课已满员",
		FullText:        "一堂课同时最多容纳 {0} 名学生，现在已经满了。请老师再开一堂课。",
		RoomsTitle:      "当前课堂太多",
		RoomsText:       "这台服务器同时运行的现场课堂已达上限。请等其中一堂结束后再试。",
		StreamsTitle:    "实时连接太多",
		StreamsText:     "这台服务器的实时连接已达上限。页面仍然可用：点击“刷新”即可看到老师进行到了哪里。",
		NotOpenTitle:    "这道题已截止",
		NotOpenText:     "老师已经往下讲了，所以这个答案没有计入。",
		TooBigTitle:     "数据太多",
		TooBigText:      "表单发送的数据远多于这个页面会发送的量，因此没有读取。",
		BadFormTitle:    "无法读取这个表单",
		BadFormText:     "提交的内容有缺失，或者不是可选项之一。请回到课堂重试。",
		OriginTitle:     "来自其他网站的提交",
		OriginText:      "为了课堂的安全，只接受从本站页面提交的表单。",
		NotTeacherTitle: "只有老师可以这样做",
		NotTeacherText:  "这堂课不是在这个浏览器里开始的，所以它不能推进课堂、揭晓答案或结束课堂。",
		CookieTitle:     "作答需要 Cookie",
		CookieText:      "你的答案与 Cookie 中的一个随机数绑定（不含任何关于你的信息），以保证只计一次。请允许本站使用 Cookie，然后重新打开课堂。",
		BackToClass:     "返回课堂",
		Unavailable:     "这台服务器不提供现场课堂。",
		LobbyHint:       "学生扫描二维码或打开地址，需要时输入课堂代码。在你点击“开始上课”之前，手机会停在这里等待；之后就跟着你展示的每一步走。",
		StartBtn:        "开始上课",
		QRShow:          "二维码",
		AnsweredOf:      "{1} 人中已有 {0} 人作答",
		WarnMissing:     "在场的 {1} 名学生中只有 {0} 人作答。可以直接揭晓答案，也可以再等一会儿。",
		RevealAnyway:    "直接揭晓答案",
		LastQ:           "全班对这一步小测验的作答",
		ChangeAnswer:    "修改我的答案",
		CanChange:       "在老师揭晓答案之前都可以修改。",
		NextLessonBtn:   "继续上第 {0} 课：{1}",
		NextLessonHint:  "代码和学生都不变，学生的手机会跟着你继续。",
		EndAsk:          "结束课堂…",
		EndConfirm:      "这会在所有手机上结束课堂，并显示课堂小结。",
		EndNow:          "现在结束课堂",
		SummaryTitle:    "课堂小结",
		SummaryIntro:    "全班对每道小测验的作答，按揭晓答案或进入下一步时的人数统计。不保留姓名：每部手机只是一个随机编号，小结过期后作答也随之删除。",
		SummaryCSV:      "下载 CSV",
		SummaryNone:     "这节课没有做小测验。",
		SummaryBack:     "回到课程列表",
		SummaryLesson:   "课",
		SummaryStep:     "步骤",
		SummaryQuestion: "小测验",
		SummaryAnswer:   "选项",
		SummaryChosen:   "选择人数",
		SummaryRight:    "{1} 人中 {0} 人答对",
		CSVVotes:        "选择人数", CSVRight: "是否正确答案（1＝是，0＝否）", CSVAnswered: "回答此题的人数",
		SummaryKeep:       "本小结在课堂结束后保留 {0} 小时，只能在你（老师）的这个浏览器中打开。如需保存，请下载 CSV。",
		Loopback:          "手机打不开 {0}（这台电脑自己的地址）：请让学生改用 {1} 加入（同一网络），或用 -public-url 指定手机能访问的地址来启动。",
		LoopbackNoLAN:     "手机打不开 {0}（这台电脑自己的地址）：请用 -addr :8080 启动 Lock Lab，并用 -public-url 指定手机能访问的地址。",
		TeachLink:         "开课",
		JoinLink:          "加入课堂",
		TeachingTitle:     "用 Lock Lab 上课",
		TeachingTable:     "课堂中的各课",
		TeachingSteps:     "步骤",
		TeachingQuestions: "小测验",
		TeachingMinutes:   "课堂用时",
		TeachingAbout:     "约 {0} 分钟",
		ChalPosed:         "课堂挑战", ChalPlay: "开始挑战", ChalPose: "给全班出一道挑战",
		ChalWhich: "挑战", ChalPoseBtn: "出题", ChalStop: "结束挑战",
		ChalSolvedBy: "已完成：{0} 人（当前在线 {1} 人）", ChalWrongN: "预测错误：{0} 人", ChalBest: "全班最好：{0} 步",
		ChalNames: "留了名字的同学",
		ChalOK:    "已完成", ChalRight: "预测正确", ChalWrong: "预测错误", ChalMoves: "{0} 步完成",
		ChalHas:          "课堂已收到你的结果：{0}。",
		ChalName:         "你的名字（可不填）",
		ChalNameHint:     "只有填写了，老师的屏幕上才会显示；不填则只计入人数，不显示名字。",
		ChalTell:         "发送到课堂",
		ChalOnlyStudents: "只有加入了课堂的设备才能发送结果：请先在该设备上打开课堂页面。",
		ChalNoneTitle:    "当前没有挑战",
		ChalNoneText:     "老师还没有给这个班出挑战，或者已经结束了。",
		ChalMovedOn:      "课堂已经换了挑战，这一道不再是当前的题目。你可以自己继续完成。", ChalAlone: "自己继续",
		ChalNameLong:    "名字最多 {0} 个字符。",
		ChalNotYetTitle: "尚未完成",
		ChalNotYetText:  "你发送的状态还没有达到挑战的目标，所以暂时没有可以发给班级的结果。",
		ChalBack:        "返回挑战",
		TeachingHTML:    "<p>Lock Lab 可以现场带一节课：你的屏幕（投影）展示课程，学生用自己的手机跟着看；每道小测验在揭晓答案之前，全班先做预测。</p>\n<h2>上课之前</h2>\n<ul>\n<li>手机必须能访问运行 Lock Lab 的电脑。在教室网络中请用 <code>go run . -addr :8080 -public-url http://&lt;这台电脑的地址&gt;:8080</code> 启动；如果加入地址是手机打不开的，课堂栏会提醒你。</li>\n<li>学生不用安装任何东西，也不用账号：用二维码或 8 位课堂代码加入。每部手机只是 Cookie 里的一个随机编号，不保留姓名。</li>\n</ul>\n<h2>课堂怎么进行</h2>\n<ol>\n<li>在任意课程页面，点击顶部“演示模式”旁边的“<strong>开课</strong>”（也可以展开“分享这一刻”，点击“<strong>从这一步开课</strong>”），课堂就从你所在的这一步开始。等候页会放大显示二维码、地址和代码；下面的“已连接”是现在打开着课堂的学生人数，“已加入”是加入过本课堂的设备数（无论现在是否在线）。大家都进来后，点击“<strong>关闭加入</strong>”，新设备就无法再加入，已加入的学生照常跟随；在你点击“<strong>重新开放加入</strong>”之前，地址和二维码旁会注明已关闭加入。</li>\n<li>点击“<strong>开始上课</strong>”。此后你展示的每一步都会到达每部手机（如果你自己的浏览器没有运行 JavaScript，请在每一步之后点击“<strong>把这一步展示给学生</strong>”）。加入信息留在顶部，只占一行；点“<strong>二维码</strong>”（或按 <kbd>q</kbd>）可以给迟到的学生再显示一次（如果已关闭加入，请先重新开放加入）。</li>\n<li>在演示模式（<kbd>f</kbd>）下，对话一句一句出现，手机上也只显示全班已经看到的台词。</li>\n<li>到了带小测验的步骤，手机上会出现这道题。你的屏幕只显示多少人作答，不显示选了什么，免得大家随大流；在你揭晓答案之前，学生可以修改答案。</li>\n<li>“<strong>揭晓答案</strong>”会在你的屏幕和每部手机上显示统计、正确答案和原因（学生先看到自己的答案）。如果还有人没作答，Lock Lab 会告诉你人数，并让你选择“<strong>直接揭晓答案</strong>”或再等一会儿。讨论之后点击“<strong>下一步</strong>”。</li>\n<li>在一课的最后一步，“<strong>继续上第 … 课</strong>”会保持同一个代码和同一批学生。</li>\n<li>“<strong>结束课堂…</strong>”确认一次后，在所有手机上结束课堂，并显示课堂小结：每道小测验的统计，可以下载 CSV。</li>\n</ol>\n<h2>按键</h2>\n<ul>\n<li><kbd>n</kbd>、<kbd>→</kbd>、<kbd>PageDown</kbd>、<kbd>Space</kbd>（翻页笔发送的键）：演示模式下先显示下一句台词，然后是下一步。</li>\n<li><kbd>←</kbd>、<kbd>PageUp</kbd>：先收回一句台词，然后退回一步。<kbd>u</kbd> 撤销上一个操作。</li>\n<li><kbd>f</kbd> 演示模式，<kbd>p</kbd> 让时间流动，<kbd>q</kbd> 二维码，<kbd>?</kbd> 全部按键。</li>\n</ul>\n<h2>每课需要多长时间</h2>\n<p>用于备课的估计：每一步约 1 分钟，每道小测验约 3 分钟（作答、揭晓、讨论）。</p>",

		// a prediction counted as sent, who joined, a locked class, and each network's share of classes and connections
		ChalPredictOnce: "课堂只计你第一次发送的答案。",
		Joined:          "{0} 台设备已加入",
		JoinedHint: "加入过本课堂的设备数（无论现在是否在线）。" +
			"如果远多于学生人数，可能有不属于本班学生的设备加入了。",
		JoinedLockTip: "等大家都进来后，可以关闭加入。",
		LockBtn:       "关闭加入",
		UnlockBtn:     "重新开放加入",
		LockHint:      "关闭加入后，新学生无法再加入；已加入的学生照常跟随课堂。",
		LockedNote:    "已关闭加入：新学生无法加入。",
		LockedShort:   "已关闭加入",
		JoinClosed:    "已关闭加入：",
		ClosedNote: "已关闭加入：新学生用这个地址或二维码无法加入。" +
			"要让迟到的学生加入，请先点击已加入设备数下方的“重新开放加入”。",
		LobbyHintLocked: "已加入的设备会停在这里等待，直到你点击“开始上课”；之后就跟着你展示的每一步走。",
		LockedTitle:     "这个课堂已关闭加入",
		LockedText: "老师已关闭这个课堂的加入：已经加入的同学不受影响，新同学暂时无法加入。" +
			"如果你之前加入过，请用当时加入的浏览器打开；如果没有，可以请老师重新开放加入，然后再试一次。",
		TryAgain:         "再试一次",
		StudyAlone:       "自己学习这一课",
		RoomsClientTitle: "来自你所在网络的课堂太多",
		RoomsClientText: "你所在的网络已经在这台服务器上开了 {0} 堂现场课堂，这是一个网络能开的上限。" +
			"请结束不再使用的课堂（“结束课堂…”），或者稍等：连续 {1} 分钟没有人打开的课堂会让出名额。",
		StreamsClientTitle: "来自你所在网络的实时连接太多",
		StreamsClientText:  "你所在的网络已经与这台服务器保持着 {0} 个实时连接，这是一个网络的上限。页面仍然可用：点击“刷新”即可看到老师进行到了哪里。",
	},
	Design: &DesignUI{
		Title: "试试你自己的锁",
		Intro: "用 Lua 脚本写出单节点 Redis 锁的四个部分——或者从预设开始修改——" +
			"然后让探索器为这个设计打分。每个脚本都在 miniredis 上用真实的 EVAL 运行；探索器在标准故障预算下，" +
			"先后尝试两个和三个客户端的每一种调度顺序，报告发现的每一类问题，" +
			"并把最短反例做成一条可以逐步查看的时间线。",
		HomeHint: "自己编写获取锁、释放锁、续期和存储写入的脚本，由探索器打分。",
		LinkText: "试试你自己的锁",
		LinkHint: "为这把锁编写你自己的脚本，让探索器打分。",
		PieceLabel: map[string]string{
			"acquire": "获取锁", "release": "释放锁", "extend": "续期（可选）", "write": "存储写入",
		},
		PieceName: map[string]string{"acquire": "获取锁", "release": "释放锁", "extend": "续期", "write": "存储写入"},
		PieceHelp: map[string]string{
			"acquire": "KEYS[1] 是锁的键，ARGV[1] 是本次加锁的随机值，ARGV[2] 是以毫秒为单位的 TTL。成功（1 或 OK）表示锁归你了；随后客户端用 INCR 取一个围栏令牌。",
			"release": "KEYS[1] 是锁的键，ARGV[1] 是客户端加锁时使用的值。",
			"extend":  "KEYS[1] 是锁的键，ARGV[1] 是值，ARGV[2] 是以毫秒为单位的 TTL。有续期脚本时，客户端每工作半个 TTL 运行一次（比第 3 课提到的、真实客户端常用的“每三分之一个 TTL”要晚，所以留的余量更小），每次写入的第一次尝试之前再运行一次（应答丢失后重发的写入不会再续期）；只要应答不是成功，客户端就认为锁已经丢了，不写入就停止。留空表示不续期。",
			"write":   "在存储上运行。KEYS[1] 是记录，KEYS[2] 是存储记录的令牌（上次接受的令牌），ARGV[1] 是客户端的令牌，ARGV[2] 是要存储的值（写入是累加到总数时为 1）。成功（1 或 OK）表示写入被接受。",
		},
		PresetLabel: map[string]string{
			"acquire.set-nx-px": "SET NX PX", "acquire.setnx-pexpire": "先 SETNX 再 PEXPIRE", "acquire.get-set": "先 GET 再 SET",
			"release.compare-delete": "比较并删除", "release.del": "普通 DEL", "release.get-del": "先 GET 再 DEL",
			"release.delex": "DELEX IFEQ",
			"extend.none":   "不续期", "extend.compare-pexpire": "比较并 PEXPIRE", "extend.pexpire": "普通 PEXPIRE",
			"write.fenced": "围栏（令牌不小于上次）", "write.strict": "围栏（令牌严格更大）",
			"write.none": "不检查", "write.split": "检查和更新分成两条命令",
		},
		StartFrom: "从预设开始：", Current: "（当前显示）", Own: "你自己的脚本",
		ThenHelp: "单独一行“-- then”会把脚本拆成多条命令：每一部分都是单独的 EVAL，其他客户端可能在中间插入操作。" +
			"某一部分的应答不是成功时，脚本就在那里结束。脚本可以使用 local 变量、if/elseif/else、比较和算术、" +
			"tonumber/tostring，以及作用于 KEYS[i] 和 ARGV[i] 的 redis.call 和 redis.pcall；不能用循环或函数；每个脚本最多 2 KB。",
		NoExtend:    "没有续期脚本：客户端从不为锁续期。",
		TimesLegend: "时间", TTLLabel: "锁的 TTL", WorkLabel: "每次写入前的工作时长", Grade: "为这个设计打分",
		ResultTitle: "评分结果", KindCol: "问题", MeaningCol: "含义", ClientsCol: "{0} 个客户端",
		NoneFound: "未发现", StepsOpen: "{0} 步：在时间线中打开",
		Incomplete: "{0} 个客户端时，搜索在 {1} 个不同状态的预算处停止：最多 {2} 个操作的调度顺序都看过了，更长的没有全部看过。" +
			"找到的问题是真实的；没找到并不说明没有问题。",
		Bounds: "范围：每个客户端只运行一次它的程序（获取锁、工作并写入、释放锁）。每个调度顺序中最多有一次停顿、一次崩溃和一次应答丢失。" +
			"停顿的时长等于客户端停下时 Redis 上锁键的剩余 TTL：这个值从服务器读取，而不是取上面选的 TTL，所以脚本自己写死了 PX，就停顿那么久；锁键没有 TTL 时，停顿无法让它过期，会发生什么由崩溃来展示。" +
			"应答丢失是指：存储执行了写入，但应答没有到达客户端，于是客户端用同一个令牌再发送一次同样的写入。调度顺序最多 {1} 个操作，每次搜索最多 {2} 个不同状态。{3}" +
			"每个调度顺序都通过 go-redis 客户端，在 miniredis 上以虚拟时间重放。",
		CodeTitle:       "这个设计的 Go 代码（go-redis）",
		CodeNote:        "你的脚本，按 Go 程序发送它们的样子写出：每一部分一次 EVAL，顺序与模拟客户端发送的顺序相同。",
		BadTitle:        "这个设计无法运行",
		BadScript:       "{0}脚本，{1}",
		BadEmpty:        "{0}脚本是空的。只有续期脚本可以省略。",
		BadTooLong:      "{0}脚本超过了 2 KB。",
		BadParts:        "{0}脚本被拆成了三条以上的命令。",
		BadTTL:          "TTL 必须是 1s 到 60s 之间的时长，比如 10s 或 1500ms。",
		BadWork:         "工作时长必须是 100ms 到 60s 之间的时长，比如 1s。",
		BadParam:        "“{0}”不是设计页面能理解的参数。",
		BadPreset:       "“{0}”不是{1}的预设。可用的预设有：{2}。",
		BadLink:         "这个设计太长，放不进链接。请缩短脚本。",
		BadClients:      "客户端数量必须是 2 或 3。",
		KeptNote:        "这是你提交的设计：改好后再打一次分。",
		StartOver:       "或者从安全的设计重新开始",
		RunTitle:        "反例",
		RunAllowedTitle: "调度顺序",
		RunIntro:        "这是探索器找到的调度顺序。下面的命令是用 EVAL 运行的你的脚本，以及每个客户端为取得围栏令牌而发送的 INCR；每个应答都是 Redis 实际返回的。",
		BackToGrade:     "返回评分结果",
		Stale:           "评分已过时：打分之后设计又改动过。要为现在的设计打分，请按“为这个设计打分”。",
		ScriptsUsed:     "用到的脚本",
		ErrorReplyNote:  "运行时出错的脚本，在时间线上显示为 Redis 的错误应答；客户端把它当作失败。",
		EffectField:     "写入做什么",
		EffectHelp: "设置记录：ARGV[2] 是要存储的值，存两次，记录也还是一样。" +
			"累加到总数：ARGV[2] 为 1，加到记录上；同一写入执行两次，任务就被算两次。写入的预设会随这个选择变化。",
		WorkPastTTL: "注意时间：每次写入之前的工作（{0}）不比锁的 TTL（{1}）短，而且没有任何续期，所以每次写入都发生在写入者自己的租约结束之后。第 3 课把这样的 TTL 称为一个 bug；任务比 TTL 长时，评分也会发现它（任务超出了租约）。",
		BadEffect:   "“{0}”不是写入能做的事：写入要么设置记录（effect=set），要么累加到总数（effect=add）。",
		EffectLabel: map[string]string{
			lockdesign.EffectSet: "设置记录（幂等）", lockdesign.EffectAdd: "总数加 1（非幂等）",
		},
		EffectBound: map[string]string{
			lockdesign.EffectSet: "写入是设置记录，所以存储再次接受重发的写入时，存入的只是已有的内容：这不算“同一写入执行了两次”。",
			lockdesign.EffectAdd: "写入是累加到总数，所以存储再次接受重发的写入时，会算两次：这就是“同一写入执行了两次”。",
		},
	},
	A11y: &A11yUI{
		Breadcrumb: "面包屑导航", LessonPager: "上一课和下一课",
		PictureRegion: "时间线图", FindingsTable: "发现的问题（按类型）", PitfallTable: "陷阱一览表",
		PictureAt: "{0} 时的时间线。", ThisStep: "上一个操作中，{0}。", ThisSpan: "上一个操作（{0}至{1}）中，{2}。", NoChange: "还没有发生任何事。",
		AndMore: "以及另外 {0} 条事件（见事件日志）",
		HoldsOn: "{0} 持有 {1} 上的锁。", HoldsOnLeft: "{0} 持有 {1} 上的锁，还剩 {2}。",
		NoHolder: "没有人持有锁。", ClientsNow: "当前客户端：{0}。", StorageNow: "存储：{0}，{1}。",
		WentWrong: "出了什么问题：{0}", ClientState: "{0} {1}", ClientToken: "{0} {1}（令牌 {2}）",
		WaitedFor: "过去了 {0}", WorkedFor: "{0} 工作了 {1}", ResumedBy: "{0} 恢复了",
		CommandTo: "{0} 向 {2} 发送 {1}：{3}", ClientNote: "{0} {1}", RedlockCount: "{0} 的判定：{1}",
		VerdictTokenOK: "存储接受了 {0} 带令牌 {1} 的写入", VerdictTokenNo: "存储拒绝了 {0} 带令牌 {1} 的写入",
		VerdictNoOp: "存储发现订单 42 已经扣过款（幂等键已被设置），{0} 的写入没有带来任何改变", Happened: "{0} {1} → {2}",
		NoHolderBelieved: "现在没有人持有锁；仍自认为持有锁的有：{0}。",
		HandHeld:         "{0} 上的锁键里是你输入的值；没有客户端持有它。",
		CrashedKey:       "{0} 已崩溃，但它在 {1} 上的锁键还在。", CrashedKeyLeft: "{0} 已崩溃，但它在 {1} 上的锁键还在，还剩 {2}。",
		MutexHeld: "这里没有锁键；持有自己进程里互斥锁的是：{0}。",
		VerdictOK: "存储接受了 {0} 的写入", VerdictNo: "存储拒绝了 {0} 的写入",
		Sep: "；", ListSep: "、", ClientSep: "；",
		Lanes:       "时间从左向右推进。泳道依次是：{0}。下表列出的是同样的事件。",
		LaneClients: "每个客户端的状态", LaneYou: "你输入的命令", LaneRedis: "Redis 中的锁键",
		LanePair: "主节点和副本上各自的锁键", LaneRedlock: "{0} 个 Redis 节点上各自的锁键",
		LaneZK: "ZooKeeper 模型中的锁", LaneEtcd: "etcd 模型中的锁", LaneStorage: "存储",
		NoLatency:  "网络延迟按 0 毫秒建模。",
		SlowNodes:  "发往 {0} 的每条命令要 {1} 才能到达（由你调慢）；发往其他节点的为 0 毫秒。",
		LinkLag:    "复制链路（模型）会在主节点做出每个更改 {0} 后，把它送到副本。",
		PauseModel: "进程停顿也是建模出来的：进程被冻结，什么也不发送；服务器只能看到它的沉默。",
	},
	Embed: &EmbedUI{
		Open:  "在 Lock Lab 中打开",
		Title: "嵌入这条时间线",
		Hint:  "能粘贴 HTML 的网页或 Wiki 用“HTML”：嵌入可交互的时间线，按钮在你的页面里也能用。Markdown（README、Issue）用“Markdown”：嵌入这一刻的图片，点击图片会打开本页。只接受嵌入地址的工具（飞书、语雀、Notion 等的嵌入块）用“嵌入地址”。支持 oEmbed 的网站，直接粘贴本页链接即可。要固定配色，在嵌入地址末尾加上 &theme=light 或 &theme=dark。",
		HTML:  "HTML（可交互）", Markdown: "Markdown（图片，链接到本页）", Address: "嵌入地址", Copy: "复制", Copied: "已复制",
		PNG: "下载为 PNG（用于 Wiki 和聊天）", Image: "Lock Lab 时间线：{0}",
		Clean:       "这条时间线上，锁和数据都没有出问题。",
		OffPath:     "第 {0} 课（自由探索的时间线）",
		StepOf:      "第 {0} 课：{1} · 第 {2} 步，共 {3} 步",
		BadTheme:    "“{0}”不是主题：请用 theme=light、theme=dark 或 theme=auto（跟随读者自己的设置）。",
		BadURL:      "“{0}”不是 Lock Lab 时间线的地址：可以嵌入的是课程中的一步、实验室的反例、设计运行和“让它出问题”挑战。",
		Foreign:     "“{0}”不在本站：这里只能嵌入本 Lock Lab 自己的时间线。",
		BadFormat:   "“{0}”：只提供 format=json。",
		BadSize:     "“{0}”不能作为尺寸：maxwidth 和 maxheight 须为不小于 1 的整数像素。",
		NotTimeline: "“{0}”是用表单作答的挑战，不是时间线，无法嵌入。请在 Lock Lab 中打开。",
		NoURL:       "请用 url=… 提供要嵌入的 Lock Lab 时间线地址（课程中的一步、实验室的反例、设计运行或“让它出问题”挑战）。",
		Loopback:    "这些嵌入代码同样指向这台电脑自己的地址：在用 -public-url 启动 Lock Lab 之前，只能在这台电脑上使用。",
		TooLong:     "这条时间线太长，无法做成 PNG（虚拟时间 {0} 秒，共 {1} 条事件）。打开下面的地址可以查看完整的时间线；SVG 不限长度。",
	},
	Picture: &PicUI{
		NodeMark: map[string]string{"down": "断开", "down/lost": "崩溃", "up": "重新连上", "up/lost": "恢复运行", "restart": "重启", "jump": "时钟 +{0}", "slow": "变慢 {0}", "promote": "主节点"},
		Instant:  "同一瞬间，事件按顺序排列", Break: "无事发生的间隔已缩短显示",
		Expired: "键已过期", Deleted: "键被删除", Foreign: "删除了别人的锁",
		New: "这一步新发生的", Now: "现在",
		ScrollHint: "左右滑动可查看整条时间线。",
	},
	Chal: &ChallengeUI{
		Title:  "挑战",
		Intro:  "让一个设计出问题，修好一个设计，或者判断一个设计会不会出问题。每个答案都由探索器核对。它会尝试范围内的每一种调度顺序，所以最少步数就是任何人至少需要的步数，而“它不会出问题”是完整搜索得出的结论，不是一种看法。",
		Lesson: "第 {0} 课：{1}",
		Break:  "让它出问题", Fix: "修好它", Predict: "它会出问题吗？",
		BreakHow:    "用允许的操作，让这个问题出现在时间线上。",
		FixHow:      "修改设计，直到探索器找不出任何问题。",
		PredictHow:  "先回答会还是不会，再看探索器的答案。",
		Num:         "挑战 {0}.{1}",
		Goal:        "目标",
		GoalBreak:   "让时间线上出现“{0}”。",
		GoalFix:     "修改设计，直到探索器搜索了这些范围内的每一种调度顺序，既没有发现数据受损，也没有发现锁失效。",
		GoalPredict: "在这些范围内，时间线上会出现“{0}”吗？",
		Design:      "设计", DesignDefault: "这一课的默认设计",
		Bounds:     "允许的操作",
		Clients:    "客户端：{0}",
		Pauses:     "停顿：{0} 次，每次等待 {1}（其间其他客户端的工作也会占用时间）",
		Crashes:    "客户端崩溃：{0} 次",
		Nodes:      "节点故障：{0} 次",
		Drops:      "丢失的应答：{0} 个",
		NoFaults:   "没有故障：没有停顿、崩溃或消息丢失",
		RulesPause: "一次停顿是三步：让客户端停顿、等待、恢复。", NoOther: "没有其他故障",
		Rules: "每个客户端最多获取锁、写入、释放锁各一次，顺序由你决定；工作所需的时间由设计决定。这些正是探索器自己的操作，所以最少步数就是任何人至少需要的步数。",
		Moves: "步数：{0}", Par: "最少步数：{0}",
		NotYet:    "还没有解开，时间线上没有出现“{0}”。",
		Solved:    "解开了：第 {0} 步出现目标。最少步数是 {1}。",
		SolvedPar: "解开了：第 {0} 步出现目标，正好是最少步数。",
		Why:       "为什么重要",
		ParLink:   "查看最短解法", Next: "下一个挑战", All: "全部挑战",
		BackLesson: "返回这一课", Start: "重新开始",
		Refused:    "这个挑战不允许这一步",
		AllowedNow: "那时允许的操作：{0}。",
		BackLast:   "回到你的上一步",
		Move: map[sim.Code]string{
			sim.CodeMoveClient: "{0} 不参与这个挑战。",
			sim.CodeMoveOnce:   "{0} 已经做过这一步了，这里每个客户端只获取锁、写入、释放锁各一次。",
			sim.CodeMoveSpent:  "这个挑战中这种故障最多 {1} 次，已经用完了。",
			sim.CodeMoveIdle:   "{0} 还没有开始，所以故障什么也改变不了。",
			sim.CodeMoveWait:   "这里的等待是停顿的一部分：客户端停顿时，可以等待一次，时长就是停顿的时长。",
			sim.CodeMoveResume: "停顿中的客户端，要等这次停顿的等待过去之后才能恢复。",
			sim.CodeMoveOther:  "这不是这个挑战里的操作。",
		},
		MoveNone:   "这个挑战不允许这种故障。",
		FixAllowed: "另外还发现了以下情况（任何租约都可能出现；数据没有受损，所以不影响“修好了”的判定）：", BadParam: "“{0}”不能用在挑战的地址里。",
		LastOne:   "这是课程的最后一个挑战。",
		FixStart:  "在这些范围内，这个设计会出问题。修改它，然后检查。",
		FixCheck:  "检查这个设计",
		FixSolved: "修好了。探索器搜索了这些范围内的每一种调度顺序（{0} 个状态，最多 {1} 步），没有发现危害，也没有发现锁失效。",
		FixNot:    "还没有修好。探索器发现的问题：{0}。",
		FixCut:    "搜索在看完所有调度顺序之前就停止了，所以这不是结论，也不算数。",
		PredictQ:  "你的预测",
		Yes:       "是的，会", No: "不，不会",
		Right: "答对了。", Wrong: "这次没答对。",
		AnswerYes: "会。探索器找到的最短调度顺序在第 {0} 步出现了“{2}”。",
		AnswerNo:  "不会。探索器搜索了这些范围内的每一种调度顺序（{0} 个状态，最多 {1} 步），没有一种会出现“{2}”。",
		Open:      "在时间线中打开这个调度顺序",
		Answered:  "已作答", SolvedBadge: "✓ {0} 步", FixedBadge: "✓ 已修好", ProgressNoJS: "进度只保存在这个浏览器里，从不保存在服务器上，而且只在开启 JavaScript 时才会保存。不开 JavaScript 也能解题和检查。",
		Copy:         "把我的进度复制成链接",
		Copied:       "已复制。在另一台设备上打开这个链接，就能把你的进度带过去。",
		Forget:       "清除我的进度",
		Forgot:       "这个浏览器里的进度已清除。",
		Restored:     "已从链接恢复你的进度。",
		ChallengesOf: "这一课的挑战",
		Count:        "挑战：已解开 {0} / {1}",
		MadeNum:      "由时间线生成的挑战",
		MadeTitle:    "由时间线生成的挑战：{0}",
		MadeNone:     "在这些范围内，探索器只用它自己的操作到不了“{0}”：生成这个挑战的时间线用了挑战不允许的操作（手动输入的命令、没有客户端停顿时的等待、节点的时钟）。请换一条时间线来生成。",
		MakeTitle:    "把这条时间线变成挑战",
		MakeHint:     "这个链接就包含了整个挑战：打开它的人从头开始挑战这个设计，客户端和故障的数量与这条时间线相同，最少步数由探索器计算。",
		MakeGoal:     "目标",
		MakeButton:   "生成挑战",
	},
	End: &EndUI{
		Title:         "课程的终点",
		Intro:         "课程到这里就结束了：这里有你到目前为止的进度、一屏看完的整个课程，以及接下来可以去哪里。",
		ProgressTitle: "你的进度",
		ProgressNoJS:  "你的进度只保存在这个浏览器里，从不保存在服务器上；开启 JavaScript 后会显示在这里。",
		DoneOf:        "已完成 {0} / {1} 课。",
		Finished:      "已完成", NotYet: "尚未完成",
		Checkpoints:   "小测验：已回答 {1} 题，答对 {0} 题（本课共 {2} 题）",
		NoCheckpoints: "还没有回答小测验",
		MapTitle:      "陷阱与对策",
		MapIntro:      "每一行都是看起来像一把能用的锁、其实并不是的做法。最后一列的课程会在时间线上演示它是怎么出问题的。",
		Pitfall:       "陷阱", Breaks: "什么会出问题", Fix: "对策", Lesson: "课程",
		LabTitle: "现在，让机器去找出问题",
		LabText:  "实验室可以拿任何一课的设计，在你设定的范围内尝试客户端命令与故障的每一种顺序，并展示让它出问题的最短调度顺序。从你信任的设计开始，看看它能不能撑住。",
		LabLink:  "打开实验室",
		Again:    "返回课程列表",
		Rows: []EndRow{
			{"每台应用服务器内部各自的互斥锁", "两台服务器都进入了临界区，订单被扣款两次：谁也看不到对方的互斥锁。", "一把所有服务器共享的锁，比如 Redis 中的一个键。", "two-servers"},
			{"先 `GET`，键空闲再 `SET`", "两个客户端都看到键空闲，都拿到了锁。", "一条原子的 `SET key value NX PX`。", "atomic-acquire"},
			{"先 `SETNX`，再 `EXPIRE`", "在两条命令之间崩溃，会留下一个没有 TTL 的键：永久锁死（`PTTL` 返回 `-1`）。", "在同一条命令里设置 TTL：`SET … NX PX`。", "atomic-acquire"},
			{"没有 TTL 的锁", "持有者崩溃后，锁永远不会被释放。", "始终设置 TTL；工作进行期间为它续期。", "ttl"},
			{"指望 TTL 拦住缓慢或停顿的持有者", "持有者还在工作时键就过期了，第二个客户端趁机进来。", "工作期间续期，并让存储检查围栏令牌。", "ttl"},
			{"用普通 `DEL` 释放锁", "锁已过期的持有者删掉了下一个持有者的锁。", "用每次加锁都唯一的值做比较并删除（Lua，或 `DELEX … IFEQ`）。", "safe-release"},
			{"用主机名（或主机名加进程 ID）作为锁的值", "两次加锁共用同一个值，于是过时持有者的比较并删除匹配成功，删掉了新锁。", "每次加锁都用新的随机值，而不是每台主机或每个进程一个。", "safe-release"},
			{"以为锁能保护数据", "停顿的持有者醒来后，覆盖了较新的数据。", "只增不减的围栏令牌，由存储在一个原子步骤中检查并写入。", "fencing"},
			{"写入前先问“锁还是我的吗？”", "持有者在得到答案和写入之间停顿，等锁已经易主之后才写入。", "客户端这边做什么都不够：要由存储检查围栏令牌。", "fencing"},
			{"存储先用 `GET` 检查令牌，再用 `SET` 写入", "两个写入者读到同一个旧令牌，较旧的写入最后落地。", "在一个原子步骤中检查并更新：脚本、事务或条件更新。", "fencing"},
			{"单个 Redis 加一个异步副本", "锁还没复制过去，主节点就宕机了；被提升的副本把锁交给了第二个客户端。", "`WAIT` 能缩小窗口，但无法消除；令牌要取自故障转移后也不会丢失的计数器（比如 etcd 的修订号），再由存储检查。", "failover"},
			{"把 Redlock 当作正确性锁", "无持久化的重启或时钟跳变，会让两个客户端都拿到多数；长时间停顿会让键已过期的客户端仍以为自己拿着多数。", "开启持久化或延迟重启，再加上来自共识系统的围栏令牌（Redlock 的值不会递增，etcd 的修订号会）；否则只把它当效率锁用。", "redlock"},
			{"把断开的连接当作仍然持有锁", "沉默期间会话过期了，第一个客户端还在行动，另一个客户端已经接手。", "在确认会话有效之前停止一切副作用；把 czxid 或修订号当作令牌，由存储检查。", "zookeeper-etcd"},
			{"指望锁实现恰好一次", "应答丢失让持有者重试，订单被扣款两次。", "在资源端使用幂等键或唯一约束。", "exactly-once"},
		},
	},
	ScriptErrors: map[string]string{
		luacheck.CodeTooLong:     "脚本在这里超出了 2048 字节的上限（全长 {0} 字节）",
		luacheck.CodeUTF8:        "这里不是有效的 UTF-8 文本",
		luacheck.CodeNUL:         "脚本中任何位置都不允许出现 NUL 字节",
		luacheck.CodeControl:     "不允许使用控制字符 {0}（制表符和换行符可以）",
		luacheck.CodeBidi:        "不允许使用双向控制字符 {0}，注释里也不行：它会让代码读起来和实际运行的不一样",
		luacheck.CodeInvisible:   "不允许使用不可见字符 {0}",
		luacheck.CodeSyntax:      "这不是有效的 Lua（在“{0}”附近）",
		luacheck.CodeSyntaxEnd:   "脚本提前结束了：有 if、do、括号或字符串没有闭合",
		luacheck.CodeLoop:        "不允许使用循环（{0}）——脚本必须总能结束",
		luacheck.CodeGoto:        "不允许使用 goto 和标签——脚本必须总能结束",
		luacheck.CodeFunction:    "不允许定义函数——脚本必须总能结束",
		luacheck.CodeGlobal:      "{0} 不可用：脚本只能使用 KEYS、ARGV、redis.call、redis.pcall、tonumber、tostring 和自己的 local 变量",
		luacheck.CodeField:       "{0} 不可用：redis 中只能用 redis.call 和 redis.pcall",
		luacheck.CodeCall:        "{0} 只能直接调用，比如 redis.call('GET', KEYS[1]) 或 tonumber(ARGV[1])",
		luacheck.CodeMethod:      "不允许使用方法调用（:{0}）",
		luacheck.CodeTable:       "不允许使用表（{ … }）",
		luacheck.CodeVararg:      "不允许使用 ...：请使用 KEYS[i] 和 ARGV[i]",
		luacheck.CodeAssign:      "不能给 {0} 赋值：只能给前面声明过的 local 变量（local x = …）赋值",
		luacheck.CodeShadow:      "local 变量不能命名为 {0}：脚本需要用到原本的 {0}",
		luacheck.CodeCommand:     "不允许使用命令 {0}；脚本可以调用的命令是 {1}",
		luacheck.CodeCommandName: "命令名必须以字符串形式写出，比如 redis.call('GET', KEYS[1])",
		luacheck.CodeArgs:        "{0} 缺少参数，或者带了它不接受的参数（选项要写成字符串，比如 'NX' 或 'PX'）",
		luacheck.CodeKey:         "{0} 的键必须写成 KEYS[i]（或赋值为 KEYS[i] 的 local 变量）：脚本只能访问传给它的键",
		luacheck.CodeKeyAssign:   "{0} 保存着一个键，所以不能再次赋值",
		luacheck.CodeIndex:       "没有把 {0} 传给这个脚本：它有的是 {1}",
		luacheck.CodeConcatBomb:  "这个 .. 可能拼出 {0} 字节的字符串（最多 4096 字节）：把拼接过的字符串再拼接，长度会逐行翻倍",
		luacheck.CodeConcatRedis: "从 Redis 读出的值不能用 .. 拼接：存回去之后，它每运行一次都会变长，没有止境",
		luacheck.CodePcallArg:    "redis.pcall 的每个参数都必须确定是字符串或数字——KEYS[i]、ARGV[i]、字面量、算术运算、tostring(…)——而这个参数可能是 nil、布尔值或表（对这些值，miniredis 和 Redis 的处理不一致）",
		luacheck.CodeDepth:       "嵌套太深（最多 40 层）",
	},
	ScriptWhere: "第 {0} 行第 {1} 列：{2}",
	ModelPhrases: []Phrase{
		// ZooKeeper
		{`session (0x[0-9a-f]+), timeout (\d+)ms`, "会话 ${1}，超时 ${2}ms"},
		{`true \(watch set\)`, "true（已设置监听）"},
		{`SyncConnected: session alive, lock kept`, "SyncConnected：会话仍然有效，锁还在"},
		{`SESSION_EXPIRED: the lock node is gone`, "SESSION_EXPIRED：锁节点已经不在了"},
		{`CONNECTION_LOSS: outcome of pending calls unknown`, "CONNECTION_LOSS：未完成调用的结果未知"},
		{`its ephemeral node deleted`, "它的临时节点已删除"},
		{`session expired`, "会话过期"},
		// etcd
		{`succeeded, revision (\d+)`, "成功，修订号 ${1}"},
		{`revision (\d+)`, "修订号 ${1}"},
		{`watching`, "监听中"},
		{`deleted (\d+)`, "已删除 ${1} 个"},
		{`keepalive OK: lease alive, lock kept`, "keepalive OK：租约仍然有效，锁还在"},
		{`ErrSessionExpired: the lease expired, the key is gone`, "ErrSessionExpired：租约已过期，键已经不在了"},
		{`keepalive stream broken: the lease lives until its TTL runs out`, "keepalive 流已断开：租约会一直保留到 TTL 耗尽"},
		{`its keys deleted`, "它的键已删除"},
		{`lease expired`, "租约过期"},
		// both
		{`connection lost`, "连接断开"},
		{`reconnect`, "重新连接"},
		{`watch event`, "监听事件"},
		{`until DELETE`, "直到 DELETE"},
		// Redlock: "3/5 OK (need 3) · elapsed 0ms · validity 10000−0−102 = 9898ms → acquired"
		{`(\d+/\d+) OK \(need (\d+)\) · elapsed (-?\d+)ms · validity (.*) → acquired`, "${1} OK（需要 ${2}）· 耗时 ${3}ms · 有效期 ${4} → 已获取"},
		{`(\d+/\d+) OK \(need (\d+)\) · elapsed (-?\d+)ms · validity (.*) → failed`, "${1} OK（需要 ${2}）· 耗时 ${3}ms · 有效期 ${4} → 失败"},
	},
	ScriptGists: map[string]string{
		"delete the lock only if it still holds my value": "只有键里仍是自己的值时才删除锁",
		"refuse a token older than the last accepted one": "拒绝比上次接受的令牌更旧的令牌",
		"accept only a token greater than the last one":   "只接受比上一个更大的令牌",
		"a new TTL, but only for my own lock":             "只给自己的锁重新设置 TTL",
		"the idempotency key and the charge, together":    "幂等键和扣款，一起完成",
	},
	ScriptsVerbatim: "脚本按发送给 Redis 的原样显示（开头的注释也保留英文，每个标题旁边是它的译文）。",
	GoComments: map[string]string{
		"// Package lock is one Lock Lab design written out with go-redis:\n// {0}.\n": "// Package lock 是用 go-redis 写出的一个 Lock Lab 设计：\n// {0}。\n",
		`
// tryAcquire is one atomic command: SET key value NX, with the TTL.
// go-redis writes a TTL of whole seconds as {0} (the same as PX {1}).`: `
// tryAcquire 是一条原子命令：带 TTL 的 SET key value NX。
// go-redis 把整秒的 TTL 写成 {0}（与 PX {1} 等价）。`,
		`// acquire sets the same key and value on every node (SET … NX, the TTL
// as {0}); the lock counts only if a majority said OK and time
// is left of its validity. Otherwise it unlocks every node (a reply may
// have been lost after a SET) and retries.`: `// acquire 在每个节点上设置相同的键和值（SET … NX，TTL 写成
// {0}）；只有多数节点回复 OK、且有效期还有剩余时，锁才算数。
// 否则它在每个节点上解锁（某个 SET 之后的应答可能丢了），然后重试。`,
		"// The lesson's keys and timings.":                     "// 课程中的键和时间。",
		"// No TTL: a holder that dies leaves the key forever.": "// 没有 TTL：持有者一旦挂掉，键就永远留着。",
		"// how long the protected work takes":                  "// 受保护的工作耗时多久",
		`
// newValue is this host's name. Every acquisition made on this host, by
// any worker at any time, puts the same value in the key, so a holder
// cannot tell its own lock from the next one taken here: the value must
// be unique per acquisition, not per host or process.`: `
// newValue 是本机的主机名。在这台主机上的每次加锁，不论是哪个工作进程、
// 在什么时候，都会往键里放同一个值，所以持有者分不清自己的锁和随后在这里
// 拿到的下一把锁：值必须每次加锁唯一，而不是每台主机或每个进程唯一。`,
		`
// newValue is unique to one acquisition, so a holder can tell its own
// lock from the next holder's: 20 random bytes, as the Redis docs suggest
// (the simulated clients use 10, to keep the event log short).`: `
// newValue 对每次加锁都唯一，这样持有者能区分自己的锁和下一个持有者的锁：
// 按 Redis 文档的建议取 20 个随机字节
// （模拟客户端只用 10 个，好让事件日志短一些）。`,
		"the system's random source failed":                          "系统的随机数源出错了",
		"a mutex inside each process":                                "每个进程内部的互斥锁",
		"Redlock over independent nodes":                             "在相互独立的节点上运行 Redlock",
		"acquire with GET then SET":                                  "先 GET 再 SET 加锁",
		"acquire with SETNX then PEXPIRE":                            "先 SETNX 再 PEXPIRE 加锁",
		"acquire with one SET NX and a TTL":                          "用一条带 TTL 的 SET NX 加锁",
		"no TTL":                                                     "不设 TTL",
		"WAIT for the replica":                                       "用 WAIT 等待副本",
		"release with a plain DEL":                                   "用普通 DEL 释放锁",
		"release with GET then DEL":                                  "先 GET 再 DEL 释放锁",
		"release with DELEX IFEQ":                                    "用 DELEX IFEQ 释放锁",
		"release with a compare-and-delete script":                   "用比较并删除脚本释放锁",
		"charges through an idempotency key":                         "通过幂等键扣款",
		"charges with a plain RPUSH":                                 "用普通 RPUSH 扣款",
		"the fencing token checked in two commands (GET, then MSET)": "用两条命令检查围栏令牌（先 GET 再 MSET）",
		"writes checked against a fencing token":                     "写入时检查围栏令牌",
		"writes not checked":                                         "写入不做检查",
		"a “still mine?” GET before writing":                         "写入前先用 GET 确认锁是否还是自己的",
		"the host's name as the lock value":                          "用主机名作为锁的值",
		", ":                                                         "，",
		`
// mu only excludes the goroutines of this process: another server has its
// own mu and charges at the same time.`: `
// mu 只能排斥本进程内的 goroutine：另一台服务器有它自己的
// mu，会在同一时间扣款。`,
		`
// tryAcquire looks, then writes: two commands. Two clients can both see
// the key free between them, and both SET it.`: `
// tryAcquire 先看再写：两条命令。两个客户端可能在这两条命令之间
// 都看到键是空闲的，然后都 SET 了它。`,
		"someone holds it": "有人持有锁",
		"// The gap: if the process dies here, the key stays without a TTL.": "// 缺口：如果进程在这里挂掉，键就会留下来，而且没有 TTL。",
		`
// tryAcquire sends SETNX (set if absent, with no TTL), then gives the key
// a TTL with a second command. go-redis's SetNX method sends SET … NX
// nowadays, so the old command goes out as it is, through Do.`: `
// tryAcquire 先发送 SETNX（不存在才设置，不带 TTL），再用第二条命令
// 给键加上 TTL。go-redis 的 SetNX 方法如今发送的是 SET … NX，
// 所以这条老命令通过 Do 原样发出。`,
		`
// tryAcquire is one atomic command: SET key value NX (here with no TTL).`: `
// tryAcquire 是一条原子命令：SET key value NX（这里不带 TTL）。`,
		"// releaseScript deletes the lock only while it still holds our value.": "// releaseScript 只在锁里仍是我们的值时才删除它。",
		`
// acquire tries until it holds the lock`: `
// acquire 一直尝试，直到持有锁`,
		"// errTaken: the lock was held by someone else; this client tries once.": "// errTaken：锁被别人持有；这个客户端只尝试一次。",
		`
// acquire tries once, like a TryLock`: `
// acquire 像 TryLock 一样只尝试一次`,
		`, then takes a fencing token: a number
// that grows with every acquisition, for the storage to check`: `，然后取一个围栏令牌：一个每次加锁
// 都会增长的数字，供存储检查`,
		".": "。",
		"// Taken, or no reply: try again after a while.": "// 锁被占用或没有应答：等一会儿再试。",
		`// Trust the lock only once the replica has it too; otherwise a
		// failover could hand the same lock to someone else.`: `// 等副本也有了这把锁才信任它；否则一次
		// 故障转移可能把同一把锁交给别人。`,
		"// The primary has it, the replica not yet: give it back.": "// 主节点上有了，副本上还没有：把锁还回去。",
		`
// release deletes the key, whoever's it is now: if our lock expired and
// another client took it, this deletes theirs.`: `
// release 删除键，不管它现在属于谁：如果我们的锁已过期、
// 又被另一个客户端拿走，这会删掉对方的锁。`,
		`
// release checks, then deletes: two commands. The lock can expire and be
// taken by another client between them.`: `
// release 先检查再删除：两条命令。锁可能在两者之间过期，
// 并被另一个客户端拿走。`,
		"gone, or not ours any more": "已经没了，或者不再是我们的",
		`
// release deletes the key only if it still holds our value, in one
// command (DELEX key IFEQ value, Redis 8.4 and later).`: `
// release 只在键里仍是我们的值时才删除它，只用一条命令
// （DELEX key IFEQ value，Redis 8.4 及以上）。`,
		`
// release runs the compare-and-delete script: the check and the delete
// happen in one step on the server, so it never removes another's lock.`: `
// release 运行比较并删除脚本：检查和删除在服务器上一步完成，
// 所以它永远不会删掉别人的锁。`,
		"// unlockScript deletes the lock only while it still holds our value.": "// unlockScript 只在锁里仍是我们的值时才删除它。",
		`
// drift is the allowance for clocks that tick at slightly different rates.`: `
// drift 是为走速略有差异的时钟留出的余量。`,
		"a node that does not answer keeps its copy until the TTL": "没有应答的节点上，键会一直留到 TTL 到期",
		`// release runs the compare-and-delete script on every node, even after
// one of them did not answer: the others must still let go.`: `// release 在每个节点上运行比较并删除脚本，即使其中某个节点
// 没有应答：其他节点仍然必须放手。`,
		`// chargeOnce writes the idempotency key and the charge together: a
// repeated request is a no-op.`: `// chargeOnce 把幂等键和扣款一起写入：重复的请求
// 什么也不做。`,
		"// write charges the order once, however often it is asked.": "// write 对订单只扣一次款，无论被请求多少次。",
		"// write charges the order: every call is one more charge.":  "// write 对订单扣款：每调用一次就多扣一次。",
		`// write checks the fencing token in two commands: it reads the last token
// the storage accepted, then writes the result and its token together.
// Another writer can read the same old token between the two, and the
// MSET that lands last wins, whatever its token.`: `// write 用两条命令检查围栏令牌：先读取存储记录的令牌（上次接受的令牌），
// 再把结果和它的令牌一起写入。
// 另一个写入者可能在两条命令之间读到同一个旧令牌，
// 于是最后到达的 MSET 获胜，不管它的令牌是多少。`,
		"refused: a newer holder already wrote":                                      "已拒绝：较新的持有者已经写入过了",
		"// The gap: another write can land here, between the check and the update.": "// 缺口：另一个写入可能在检查和更新之间落到这里。",
		`// fencedWrite refuses a token lower than the last one accepted; check and
// update are one script.`: `// fencedWrite 拒绝比上次接受的令牌更小的令牌；检查和
// 更新在同一个脚本里。`,
		`// write stores the result with the fencing token; a holder whose lock was
// taken over after a pause is refused here, at the storage.`: `// write 带着围栏令牌保存结果；停顿期间锁被别人接管的持有者，
// 会在这里被存储拒绝。`,
		`// write stores the result. Nothing checks who is writing: a holder whose
// lock expired during a pause overwrites the next holder's result.`: `// write 保存结果。没有任何东西检查是谁在写：锁在停顿期间
// 过期的持有者，会覆盖下一个持有者的结果。`,
		`
// A request whose reply was lost is sent again: the client cannot tell
// whether it happened.`: `
// 应答丢失的请求会再发送一次：客户端无法判断
// 它是否已经执行。`,
		`
// Run is one server's program: lock, work, charge, unlock.`: `
// Run 是一台服务器的程序：加锁、工作、扣款、解锁。`,
		`
// Run is one client's program: lock a majority, work, write, unlock. The
// work has to end within the lock's validity, and nothing here can make
// sure it does: a pause after acquire outlives it unnoticed.`: `
// Run 是一个客户端的程序：在多数节点上加锁、工作、写入、解锁。
// 工作必须在锁的有效期内结束，而这里没有任何东西能保证这一点：
// 加锁之后的一次停顿，会在不知不觉中超出有效期。`,
		`
// stillMine asks Redis whether the lock still holds our value. The answer
// is true when Redis gives it, but the lock can expire right after, and a
// pause between this check and the write goes unseen: the check and the
// write are two steps, not one. Only the storage can refuse a stale write
// (a fencing token).`: `
// stillMine 询问 Redis 锁里是否仍是我们的值。Redis 给出答案的那一刻
// 答案是对的，但锁可能紧接着就过期，而这次检查和写入之间的停顿
// 是察觉不到的：检查和写入是两步，而不是一步。只有存储能拒绝陈旧的
// 写入（围栏令牌）。`,
		"the lock is gone: do not write":                                 "锁已经没了：不要写入",
		"// A pause here, after the check, lets the write go out stale.": "// 检查之后若在这里停顿，发出的就是一次陈旧写入。",
		`
// Run is one client's program: acquire, work, write, release.`: `
// Run 是一个客户端的程序：获取锁、工作、写入、释放锁。`,
		"// The keys and times of your design.": "// 你的设计中的键和时间。",
		`// The write adds amount to a total (ARGV[2]): not idempotent. The same
// write applied twice counts the job twice.`: `// 写入把 amount 加到总数上（ARGV[2]）：不是幂等的。同一写入
// 执行两次，任务就被算了两次。`,
		"no extend script": "没有续期脚本",
		"// Your scripts. A script split by “-- then” is several commands: one EVAL per part.": "// 你的脚本。用“-- then”拆开的脚本是多条命令：每一部分一次 EVAL。",
		`// run sends each part in turn. A reply that is not success (1 or OK) ends
// it there, and so does an error reply: a script that fails at run time
// is a no, as on the timeline.`: `// run 依次发送每一部分。应答不是成功（1 或 OK）时就在那里结束，
// 错误应答也一样：运行时失败的脚本算作“否”，与时间线上一致。`,
		"// newValue is this acquisition's random value: 20 random bytes, as the Redis docs suggest\n// (the simulated clients use 10, to keep the event log short).": "// newValue 是本次加锁的随机值：按 Redis 文档的建议取 20 个随机字节\n// （模拟客户端只用 10 个，好让事件日志短一些）。",
		"// acquire tries until the acquire script says yes, then takes a fencing token.":                                                                             "// acquire 一直尝试，直到获取锁脚本返回成功，然后取一个围栏令牌。",
		`// workAndWrite does the work, extending the lock after every half TTL of it
// (and once more just before writing) if the design extends, then sends
// the write to the storage. It reports whether the storage accepted it.
// A write whose reply times out may have been applied or not: it is sent
// again, with the same token and the same value.`: `// workAndWrite 执行工作；如果设计包含续期，每工作半个 TTL 就为锁续期一次
// （写入前再续一次），然后把写入发送到存储。它返回存储是否接受了写入。
// 应答超时的写入可能已经执行，也可能没有：它会用同一个令牌和同一个值
// 再发送一次。`,
		"the work": "工作",
		"// Run is one client's program: acquire, work and write, release.": "// Run 是一个客户端的程序：获取锁、工作并写入、释放锁。",
		`// Package lock is your design from Lock Lab's “Bring your own lock”.
`: `// Package lock 是你在 Lock Lab 的“试试你自己的锁”里做的设计。
`,
	},
}
