/// The word lists of the generated languages (`TextLanguage`): everyday words of the feeds the
/// seeds describe (posts, comments, cells, lists), written for this suite. One word a line.
enum WordLists {
    static let english = words("""
        the a an and or but of to in on at for with from by about after before over under
        list cell row table view label text font line height width size layout scroll screen
        post comment reply like share photo video image caption title body name time today
        yesterday morning evening week month year friend friends people team project update
        new old first last next previous every each some many more most less few little
        good great small large long short quick slow simple clear real fresh early late
        make made take took see saw look looked read wrote write show shows shown keep kept
        measure measured measures cache cached caches height heights width widths rotation
        phone tablet device screen display system engine solver constraint constraints
        because while when where which who what how why this that these those there here
        it its they their them we our you your he she his her one two three four five ten
        city street house coffee tea lunch dinner trip train flight weather rain sun snow
        music film book story news article question answer idea plan note message thread
        open close start stop move moved change changed changes load loaded loading saved
        still just only also even again always never often sometimes really very quite
        auto layout self sizing template prototype offscreen estimate estimated precise
        """)

    static let russian = words("""
        и в не на с что как по это но из у за от к для о же так все она он они мы вы
        ячейка ячейки список списка строка строки таблица таблицы высота высоты ширина
        текст текста шрифт шрифта кэш кэша экран экрана прокрутка прокрутки разметка
        метка метки пост комментарий ответ фото видео подпись заголовок время сегодня
        вчера утром вечером неделя месяц год друг друзья люди команда проект обновление
        новый новая старый первый последний следующий каждый много больше меньше мало
        хороший быстрый медленный простой точный ранний поздний настоящий свежий
        измерить измеряет измерение посчитать считает высчитывает кэширует хранит
        поворот телефон планшет устройство система движок решатель ограничение ограничения
        потому когда где который кто что почему этот эта эти там здесь один два три пять
        город улица дом кофе чай обед ужин поездка поезд рейс погода дождь солнце снег
        музыка фильм книга история новости статья вопрос идея план заметка сообщение
        открыть закрыть начать остановить изменить изменение загрузка сохранено
        ещё только тоже даже снова всегда никогда часто иногда очень довольно
        автоматическая верстка шаблон прототип оценка оценённая точная
        """)

    /// Chinese has no spaces: the generator joins these words directly.
    static let chinese = words("""
        列表 单元格 高度 宽度 文本 字体 行高 布局 滚动 屏幕 缓存 计算 测量 模板 约束
        自动 布局引擎 预估 精确 性能 优化 旋转 横屏 竖屏 设备 手机 平板 系统 界面
        帖子 评论 回复 点赞 分享 照片 视频 图片 标题 正文 名字 时间 今天 昨天 早上
        晚上 星期 月份 今年 朋友 大家 团队 项目 更新 新的 旧的 第一 最后 下一个
        每个 一些 很多 更多 最少 简单 清楚 真实 新鲜 提前 延迟 看到 读到 写下 显示
        保存 打开 关闭 开始 停止 移动 改变 加载 因为 所以 但是 而且 如果 虽然 我们
        你们 他们 这个 那个 这里 那里 城市 街道 咖啡 午饭 晚饭 旅行 火车 航班 天气
        下雨 阳光 下雪 音乐 电影 书籍 故事 新闻 文章 问题 答案 想法 计划 笔记 消息
        还是 只是 也是 总是 从来 经常 有时 非常 相当 已经 正在 可以 需要 应该 知道
        """)

    /// Mixed text adds these (the CJK font has them: WenQuanYi Micro Hei).
    static let symbols = words("""
        ★ ☆ ♥ ✓ ♪ → ← ↑ ↓ ※ ◎ △ □ ○ ● ◆
        """)

    private static func words(_ text: String) -> [[UInt8]] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Array($0.utf8) }
    }
}
