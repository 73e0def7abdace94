/**
 * Demo-mode seed content: home banners and announcements (notices),
 * translated into every interface language.
 *
 * Notice `content` is plain text; paragraphs are separated by "\n\n".
 * The content is deliberately factual: no promised returns, no APY figures.
 */

export type SeedLang = 'tw' | 'en' | 'zh' | 'jp' | 'ko' | 'th' | 'pt' | 'id' | 'vn' | 'ms'

export interface SeedBanner {
  /** The key the banner loader names it by (server/modules/notice/contentFile.ts). */
  key: string
  image: string
  link: string | null
  sort: number
  title: Record<SeedLang, string>
}

export interface SeedNotice {
  key: string
  pinned: boolean
  daysAgo: number
  title: Record<SeedLang, string>
  content: Record<SeedLang, string>
}

/** Join paragraphs into the plain-text notice format. */
const p = (...paragraphs: string[]): string => paragraphs.join('\n\n')

export const SEED_BANNERS: SeedBanner[] = [
  {
    key: 'devices',
    // A banner opens what it advertises: the device shop, the gold mall, the team page.
    image: '/banners/banner-1.svg',
    link: '/shop',
    sort: 1,
    title: {
      tw: '礦機上架：手機、摺疊機、平板',
      en: 'Mining devices: phones, foldables, tablets',
      zh: '矿机上架：手机、折叠机、平板',
      jp: 'マイニング機器：スマホ・折りたたみ・タブレット',
      ko: '채굴기 출시: 폰, 폴더블, 태블릿',
      th: 'เครื่องขุด: มือถือ พับได้ แท็บเล็ต',
      pt: 'Dispositivos de mineração: celulares, dobráveis, tablets',
      id: 'Perangkat tambang: ponsel, lipat, tablet',
      vn: 'Thiết bị đào: điện thoại, máy gập, máy tính bảng',
      ms: 'Peranti perlombongan: telefon, lipat, tablet',
    },
  },
  {
    key: 'gold-mall',
    image: '/goods/mall-banner-1.svg',
    link: '/mall',
    sort: 2,
    title: {
      tw: '黃金商城：999.9 千足金',
      en: 'Gold mall: 999.9 fine gold',
      zh: '黄金商城：999.9 千足金',
      jp: 'ゴールドモール：999.9 純金',
      ko: '골드 몰: 999.9 순금',
      th: 'ร้านทองคำ: ทองคำบริสุทธิ์ 999.9',
      pt: 'Loja de ouro: ouro puro 999,9',
      id: 'Toko emas: emas murni 999,9',
      vn: 'Cửa hàng vàng: vàng 999.9',
      ms: 'Kedai emas: emas tulen 999.9',
    },
  },
  {
    key: 'team',
    image: '/banners/banner-3.svg',
    link: '/user',
    sort: 3,
    title: {
      tw: '邀請好友，壯大團隊',
      en: 'Invite friends, build a team',
      zh: '邀请好友，壮大团队',
      jp: '友達を招待してチームづくり',
      ko: '친구 초대하고 팀 키우기',
      th: 'ชวนเพื่อน สร้างทีมของคุณ',
      pt: 'Convide amigos, monte seu time',
      id: 'Ajak teman, bangun tim Anda',
      vn: 'Mời bạn bè, xây dựng đội nhóm',
      ms: 'Jemput rakan, bina pasukan anda',
    },
  },
]

export const SEED_NOTICES: SeedNotice[] = [
  // 1. Welcome / launch (pinned)
  {
    key: 'welcome',
    pinned: true,
    daysAgo: 30,
    title: {
      tw: '歡迎來到 NADI：App 正式上線',
      en: 'Welcome to NADI: the app is now live',
      zh: '欢迎来到 NADI：App 正式上线',
      jp: 'NADIへようこそ：アプリ正式リリースのお知らせ',
      ko: 'NADI에 오신 것을 환영합니다: 앱 정식 출시',
      th: 'ยินดีต้อนรับสู่ NADI: แอปเปิดให้บริการอย่างเป็นทางการแล้ว',
      pt: 'Bem-vindo ao NADI: o app já está no ar',
      id: 'Selamat datang di NADI: aplikasi resmi diluncurkan',
      vn: 'Chào mừng đến với NADI: ứng dụng chính thức ra mắt',
      ms: 'Selamat datang ke NADI: aplikasi kini dilancarkan',
    },
    content: {
      tw: p(
        'NADI App 現已正式向所有用戶開放。NADI 將 DePIN 挖礦設備、超級礦工節點與 NADI 代幣整合在同一個以手機為優先的應用程式中，並可直接搭配您的瀏覽器錢包使用。',
        '開始使用時，請連接您的錢包並簽署登入訊息。簽署登入訊息不會轉移任何資產，也不需支付 Gas 費。新帳戶需透過邀請碼註冊，請向介紹您認識 NADI 的朋友索取邀請碼。',
        '從今天起，您可以購買挖礦設備；銷毀 NADI 以獲得算力，或使用 USDT 參與聯合挖礦；也可以存幣（質押）NADI，並在釋放記錄中查看每一筆釋放。在錢包中，您可以進行充值、提現、兌換，以及在資金帳戶與交易帳戶之間劃轉。您也可以邀請好友，並在「個人中心」查看團隊進展。超級礦工節點的認購與 NADI/USDT 現貨交易將於稍後開放，屆時會在公告中另行通知。',
        '挖礦產出、節點獎勵與存幣收益取決於網路狀況及各產品頁面所列規則，並非保證收益。參與前請仔細閱讀各頁面說明。',
        '感謝您的早期支持。如有任何疑問，請透過 App 內列出的官方客服管道與我們聯繫。',
      ),
      en: p(
        'The NADI app is now open to everyone. NADI brings DePIN mining devices, Super Miner nodes and the NADI token together in one mobile-first app that works directly with your browser wallet.',
        'To get started, connect your wallet and sign the login message. Signing the login message does not move any funds and costs no gas. New accounts are created with an invite code, so ask the person who introduced you to NADI for theirs.',
        "From today you can buy mining devices, destroy NADI to receive mining power or join joint mining with USDT, and save (pledge) NADI with every release shown in your release record. In your wallet you can recharge, withdraw, exchange, and transfer funds between your fund account and your trade account. You can also invite friends and follow your team's progress on the User page. Super Miner node sales and NADI/USDT spot trading will open later, and each opening will be announced here in Notices.",
        'Mining output, node rewards and savings income depend on network conditions and on the rules shown on each product page, and they are not guaranteed. Please read each page carefully before taking part.',
        'Thank you for joining us early. If you have any questions, please contact us through the official support channels listed in the app.',
      ),
      zh: p(
        'NADI App 现已正式向所有用户开放。NADI 将 DePIN 挖矿设备、超级矿工节点与 NADI 代币整合在同一个移动优先的应用中，并可直接配合您的浏览器钱包使用。',
        '开始使用时，请连接您的钱包并签署登录消息。签署登录消息不会转移任何资产，也无需支付 Gas 费。新账户需通过邀请码注册，请向为您介绍 NADI 的朋友索取邀请码。',
        '从今天起，您可以购买挖矿设备；销毁 NADI 获得算力，或使用 USDT 参与联合挖矿；还可以存币（质押）NADI，并在释放记录中查看每一笔释放。在钱包中，您可以充值、提现、兑换，以及在资金账户与交易账户之间划转。您也可以邀请好友，并在个人中心查看团队进展。超级矿工节点认购和 NADI/USDT 现货交易将于稍后开放，届时会在公告中另行通知。',
        '挖矿产出、节点奖励和存币收益取决于网络状况及各产品页面所列规则，并不保证。参与前请仔细阅读各页面说明。',
        '感谢您的早期支持。如有任何疑问，请通过 App 内列出的官方客服渠道联系我们。',
      ),
      jp: p(
        'NADIアプリがすべての方にご利用いただけるようになりました。NADIは、DePINマイニングデバイス、スーパーマイナーノード、NADIトークンをひとつのモバイル向けアプリにまとめ、お使いのブラウザウォレットから直接ご利用いただけます。',
        'ご利用を始めるには、ウォレットを接続し、ログインメッセージに署名してください。ログインメッセージへの署名によって資産が移動することはなく、ガス代もかかりません。新規アカウントの作成には招待コードが必要です。NADIを紹介してくれた方から招待コードを受け取ってください。',
        '本日から、マイニングデバイスの購入、NADIを焼却してのマイニングパワーの獲得、USDTによる共同マイニングへの参加、そしてNADIの預け入れ（プレッジ）が可能です。預け入れのリリースはすべてリリース履歴で確認できます。ウォレットでは、入金、出金、交換、そして資金アカウントと取引アカウント間の振替が可能です。さらに、友達を招待し、ユーザーページでチームの状況を確認することもできます。スーパーマイナーノードの販売とNADI/USDT現物取引は後日開始予定で、開始時にはお知らせでご案内します。',
        'マイニングの産出量、ノード報酬、預け入れによる収益はネットワークの状況および各商品ページに記載されたルールによって変動し、保証されるものではありません。ご参加の前に各ページの内容をよくお読みください。',
        'いち早くご参加いただき、ありがとうございます。ご不明な点がございましたら、アプリ内に記載された公式サポート窓口までお問い合わせください。',
      ),
      ko: p(
        '이제 누구나 NADI 앱을 이용할 수 있습니다. NADI는 DePIN 채굴 기기, 슈퍼 마이너 노드, NADI 토큰을 하나의 모바일 중심 앱에 담았으며, 사용 중인 브라우저 지갑과 바로 연동됩니다.',
        '시작하려면 지갑을 연결하고 로그인 메시지에 서명하세요. 로그인 메시지 서명으로는 자산이 이동하지 않으며 가스비도 들지 않습니다. 신규 계정은 초대 코드로 생성되므로, NADI를 소개해 준 분에게 초대 코드를 받아 주세요.',
        '오늘부터 채굴 기기를 구매하고, NADI를 소각해 채굴력을 받거나 USDT로 공동 채굴에 참여할 수 있으며, NADI를 예치(플레지)하고 릴리스 기록에서 모든 지급 내역을 확인할 수 있습니다. 지갑에서는 충전, 출금, 교환은 물론 자금 계정과 거래 계정 간 이체도 가능합니다. 또한 친구를 초대하고 사용자 페이지에서 팀 현황을 확인할 수 있습니다. 슈퍼 마이너 노드 판매와 NADI/USDT 현물 거래는 추후 오픈되며, 오픈 시 공지사항을 통해 안내해 드리겠습니다.',
        '채굴 산출량, 노드 보상, 예치 수익은 네트워크 상황과 각 상품 페이지에 안내된 규칙에 따라 달라지며 보장되지 않습니다. 참여하기 전에 각 페이지의 내용을 꼼꼼히 읽어 주세요.',
        '일찍 함께해 주셔서 감사합니다. 궁금한 점이 있으시면 앱에 안내된 공식 고객 지원 채널로 문의해 주세요.',
      ),
      th: p(
        'ขณะนี้แอป NADI เปิดให้ทุกคนใช้งานแล้ว NADI รวมอุปกรณ์ขุด DePIN โหนด Super Miner และโทเคน NADI ไว้ในแอปเดียวที่ออกแบบมาสำหรับมือถือเป็นหลัก และใช้งานร่วมกับวอลเล็ตบนเบราว์เซอร์ของคุณได้โดยตรง',
        'เริ่มต้นใช้งานโดยเชื่อมต่อวอลเล็ตและลงนามข้อความเข้าสู่ระบบ การลงนามข้อความเข้าสู่ระบบจะไม่มีการโอนเงินใด ๆ และไม่มีค่าแก๊ส บัญชีใหม่ต้องสมัครด้วยรหัสเชิญ โปรดขอรหัสเชิญจากผู้ที่แนะนำ NADI ให้คุณ',
        'ตั้งแต่วันนี้ คุณสามารถซื้ออุปกรณ์ขุด เผา (ทำลาย) NADI เพื่อรับพลังขุด หรือเข้าร่วมการขุดร่วม (Joint Mining) ด้วย USDT รวมถึงออม (Pledge) NADI และตรวจสอบการปล่อยคืนทุกรายการได้ในประวัติการปล่อยคืน ในวอลเล็ต คุณสามารถเติมเงิน ถอนเงิน แลกเปลี่ยน และโอนเงินระหว่างบัญชีเงินทุนกับบัญชีเทรดได้ นอกจากนี้ยังสามารถเชิญเพื่อนและติดตามความคืบหน้าของทีมได้ที่หน้าผู้ใช้ การจำหน่ายโหนด Super Miner และการซื้อขาย Spot คู่ NADI/USDT จะเปิดในภายหลัง และเราจะแจ้งให้ทราบผ่านหน้าประกาศเมื่อเปิดให้บริการ',
        'ผลผลิตจากการขุด รางวัลโหนด และผลตอบแทนจากการออมขึ้นอยู่กับสภาพเครือข่ายและกติกาที่แสดงไว้ในหน้าผลิตภัณฑ์แต่ละหน้า และไม่มีการรับประกัน โปรดอ่านรายละเอียดในแต่ละหน้าอย่างรอบคอบก่อนเข้าร่วม',
        'ขอบคุณที่ร่วมเป็นส่วนหนึ่งกับเราตั้งแต่เริ่มต้น หากมีข้อสงสัย โปรดติดต่อเราผ่านช่องทางบริการลูกค้าอย่างเป็นทางการที่ระบุไว้ในแอป',
      ),
      pt: p(
        'O app NADI agora está aberto para todos. O NADI reúne dispositivos de mineração DePIN, nós Super Miner e o token NADI em um único app pensado para o celular, que funciona diretamente com a sua carteira do navegador.',
        'Para começar, conecte sua carteira e assine a mensagem de login. Assinar a mensagem de login não movimenta nenhum fundo e não custa gas. Novas contas são criadas com um código de convite, então peça o código à pessoa que apresentou o NADI a você.',
        'A partir de hoje, você pode comprar dispositivos de mineração, queimar (destruir) NADI para receber poder de mineração ou participar da mineração conjunta com USDT, e poupar (fazer pledge de) NADI, acompanhando cada liberação no seu histórico de liberações. Na carteira, você pode depositar, sacar, converter e transferir fundos entre a sua conta de fundos e a sua conta de negociação. Também pode convidar amigos e acompanhar o progresso da sua equipe na página do usuário. A venda de nós Super Miner e a negociação à vista de NADI/USDT serão abertas mais adiante, e cada abertura será anunciada aqui nos Avisos.',
        'A produção da mineração, as recompensas dos nós e os rendimentos da poupança dependem das condições da rede e das regras exibidas em cada página de produto, e não são garantidos. Leia cada página com atenção antes de participar.',
        'Obrigado por estar com a gente desde o início. Se tiver dúvidas, entre em contato pelos canais oficiais de suporte indicados no app.',
      ),
      id: p(
        'Aplikasi NADI kini terbuka untuk semua orang. NADI menghadirkan perangkat penambangan DePIN, node Super Miner, dan token NADI dalam satu aplikasi yang dirancang untuk ponsel dan dapat langsung digunakan dengan dompet browser Anda.',
        'Untuk memulai, hubungkan dompet Anda dan tanda tangani pesan login. Menandatangani pesan login tidak memindahkan dana apa pun dan tidak dikenakan biaya gas. Akun baru dibuat dengan kode undangan, jadi mintalah kode tersebut kepada orang yang memperkenalkan NADI kepada Anda.',
        'Mulai hari ini, Anda dapat membeli perangkat penambangan, membakar (memusnahkan) NADI untuk mendapatkan daya tambang atau ikut penambangan bersama dengan USDT, serta menabung (pledge) NADI dan memantau setiap pelepasan di riwayat pelepasan. Di dompet, Anda dapat melakukan isi ulang, penarikan, penukaran, serta transfer dana antara akun dana dan akun perdagangan. Anda juga dapat mengundang teman dan memantau perkembangan tim di halaman Pengguna. Penjualan node Super Miner dan perdagangan spot NADI/USDT akan dibuka kemudian, dan setiap pembukaan akan diumumkan di sini melalui Pengumuman.',
        'Hasil penambangan, hadiah node, dan pendapatan tabungan bergantung pada kondisi jaringan serta aturan yang tercantum di setiap halaman produk, dan tidak dijamin. Harap baca setiap halaman dengan saksama sebelum berpartisipasi.',
        'Terima kasih telah bergabung sejak awal. Jika ada pertanyaan, silakan hubungi kami melalui saluran dukungan resmi yang tercantum di aplikasi.',
      ),
      vn: p(
        'Ứng dụng NADI nay đã mở cho tất cả mọi người. NADI kết hợp thiết bị đào DePIN, node Super Miner và token NADI trong một ứng dụng ưu tiên di động, hoạt động trực tiếp với ví trình duyệt của bạn.',
        'Để bắt đầu, hãy kết nối ví và ký thông điệp đăng nhập. Việc ký thông điệp đăng nhập không chuyển bất kỳ khoản tiền nào và không tốn phí gas. Tài khoản mới được tạo bằng mã mời, vì vậy hãy xin mã từ người đã giới thiệu NADI cho bạn.',
        'Từ hôm nay, bạn có thể mua thiết bị đào, đốt (tiêu hủy) NADI để nhận sức mạnh đào hoặc tham gia đào chung bằng USDT, gửi tiết kiệm (cầm cố) NADI và theo dõi từng lần giải phóng trong lịch sử giải phóng. Trong ví, bạn có thể nạp tiền, rút tiền, quy đổi và chuyển tiền giữa tài khoản vốn và tài khoản giao dịch. Bạn cũng có thể mời bạn bè và theo dõi tiến độ của đội nhóm tại trang Người dùng. Việc mở bán node Super Miner và giao dịch giao ngay NADI/USDT sẽ được triển khai sau, và mỗi lần mở sẽ được thông báo tại mục Thông báo.',
        'Sản lượng đào, phần thưởng node và thu nhập tiết kiệm phụ thuộc vào điều kiện mạng lưới và các quy tắc hiển thị trên từng trang sản phẩm, và không được đảm bảo. Vui lòng đọc kỹ từng trang trước khi tham gia.',
        'Cảm ơn bạn đã đồng hành cùng chúng tôi từ sớm. Nếu có bất kỳ câu hỏi nào, vui lòng liên hệ qua các kênh hỗ trợ chính thức được liệt kê trong ứng dụng.',
      ),
      ms: p(
        'Aplikasi NADI kini dibuka kepada semua orang. NADI menghimpunkan peranti perlombongan DePIN, nod Super Miner dan token NADI dalam satu aplikasi yang mengutamakan telefon mudah alih, dan berfungsi terus dengan dompet pelayar anda.',
        'Untuk bermula, sambungkan dompet anda dan tandatangani mesej log masuk. Menandatangani mesej log masuk tidak memindahkan sebarang dana dan tidak dikenakan yuran gas. Akaun baharu dicipta dengan kod jemputan, jadi mintalah kod daripada orang yang memperkenalkan NADI kepada anda.',
        'Mulai hari ini, anda boleh membeli peranti perlombongan, memusnahkan NADI untuk menerima kuasa perlombongan atau menyertai perlombongan bersama dengan USDT, serta membuat simpanan (pledge) NADI dan menyemak setiap pelepasan dalam rekod pelepasan. Dalam dompet, anda boleh membuat tambah nilai, pengeluaran, pertukaran, dan pindahan dana antara akaun dana dan akaun dagangan. Anda juga boleh menjemput rakan dan mengikuti perkembangan pasukan anda di halaman Pengguna. Jualan nod Super Miner dan dagangan spot NADI/USDT akan dibuka kemudian, dan setiap pembukaan akan diumumkan di sini dalam Notis.',
        'Hasil perlombongan, ganjaran nod dan pendapatan simpanan bergantung pada keadaan rangkaian dan peraturan yang dipaparkan pada setiap halaman produk, dan tidak dijamin. Sila baca setiap halaman dengan teliti sebelum menyertai.',
        'Terima kasih kerana menyertai kami lebih awal. Jika anda mempunyai sebarang pertanyaan, sila hubungi kami melalui saluran sokongan rasmi yang disenaraikan dalam aplikasi.',
      ),
    },
  },

  // 2. Security reminder (pinned)
  {
    key: 'security-reminder',
    pinned: true,
    daysAgo: 4,
    title: {
      tw: '安全提醒：請妥善保管您的助記詞',
      en: 'Security reminder: protect your seed phrase',
      zh: '安全提醒：请妥善保管您的助记词',
      jp: 'セキュリティに関する注意：シードフレーズを守りましょう',
      ko: '보안 안내: 시드 구문을 안전하게 보관하세요',
      th: 'แจ้งเตือนความปลอดภัย: ปกป้องวลีกู้คืน (Seed Phrase) ของคุณ',
      pt: 'Alerta de segurança: proteja sua frase-semente',
      id: 'Pengingat keamanan: lindungi frasa pemulihan Anda',
      vn: 'Nhắc nhở bảo mật: hãy bảo vệ cụm từ khôi phục của bạn',
      ms: 'Peringatan keselamatan: lindungi frasa pemulihan anda',
    },
    content: {
      tw: p(
        '錢包的助記詞（又稱恢復短語）與私鑰代表對您資產的完全控制權。任何取得它們的人都能轉走您的資產，而鏈上轉帳一經完成便無法撤回。',
        'NADI 的工作人員、社群管理員及客服人員絕不會透過聊天、電子郵件、電話或社群媒體向您索取助記詞或私鑰。任何向您索取的人都是在企圖詐騙。請勿在任何網站、表單或聊天視窗中輸入您的助記詞。',
        '請僅在 NADI 官方網站連接錢包並簽署訊息。簽署前，請仔細閱讀錢包顯示的內容：登入 NADI 只需要簽署一則純文字的登入訊息，它不會授權任何轉帳，也不涉及代幣授權（Approve）。如果您並未主動發起付款，錢包卻要求您授權動用代幣，請拒絕該請求。',
        '請提防私訊中傳來的連結、仿冒網域、假空投，以及任何承諾保證獲利或聲稱可收費協助追回遺失資產的人。',
        '如果您懷疑錢包已遭盜用，請立即將剩餘資產轉移至新錢包，並透過 App 內列出的官方管道聯繫客服。',
      ),
      en: p(
        "Your wallet's seed phrase (also called a recovery phrase) and your private key give full control of your assets. Anyone who has them can move your funds, and on-chain transfers cannot be reversed.",
        'NADI staff, moderators and support agents will never ask for your seed phrase or private key, whether by chat, email, phone or social media. Anyone who asks for them is attempting fraud. Never type your seed phrase into a website, a form or a chat window.',
        'Only connect your wallet and sign messages on the official NADI site. Before you sign, read what your wallet shows you: logging in to NADI only requires signing a plain-text login message, which never authorizes a transfer or a token approval. If your wallet asks you to approve spending of your tokens when you have not started a payment yourself, reject the request.',
        'Be careful with links sent in private messages, look-alike domains, fake airdrops, and anyone who promises guaranteed profits or offers to recover lost funds for a fee.',
        'If you think your wallet has been compromised, move your remaining assets to a new wallet immediately and contact support through the official channels listed in the app.',
      ),
      zh: p(
        '钱包的助记词（又称恢复短语）和私钥代表对您资产的完全控制权。任何获得它们的人都能转走您的资产，而链上转账一旦完成便无法撤回。',
        'NADI 的工作人员、社区管理员及客服人员绝不会通过聊天、电子邮件、电话或社交媒体向您索要助记词或私钥。任何向您索要的人都是在企图诈骗。请勿在任何网站、表单或聊天窗口中输入您的助记词。',
        '请仅在 NADI 官方网站连接钱包并签署消息。签署前，请仔细阅读钱包显示的内容：登录 NADI 只需签署一条纯文本登录消息，它不会授权任何转账，也不涉及代币授权（Approve）。如果您并未主动发起付款，钱包却要求您授权动用代币，请拒绝该请求。',
        '请警惕私信中发来的链接、仿冒域名、虚假空投，以及任何承诺保证盈利或声称可收费帮助追回丢失资产的人。',
        '如果您怀疑钱包已被盗用，请立即将剩余资产转移到新钱包，并通过 App 内列出的官方渠道联系客服。',
      ),
      jp: p(
        'ウォレットのシードフレーズ（リカバリーフレーズ）と秘密鍵は、あなたの資産を完全に管理するためのものです。これらを知っている人は誰でもあなたの資産を移動でき、オンチェーンの送金は取り消すことができません。',
        'NADIのスタッフ、モデレーター、サポート担当者が、チャット、メール、電話、SNSなどでシードフレーズや秘密鍵を尋ねることは絶対にありません。これらを求める人は詐欺を試みています。ウェブサイト、フォーム、チャット画面にシードフレーズを入力しないでください。',
        'ウォレットの接続とメッセージへの署名は、NADIの公式サイトでのみ行ってください。署名する前に、ウォレットに表示される内容を必ず確認してください。NADIへのログインに必要なのは、プレーンテキストのログインメッセージへの署名だけであり、送金やトークンの承認（Approve）を許可するものではありません。ご自身で支払いを開始していないのに、トークンの使用承認を求められた場合は拒否してください。',
        '個人メッセージで送られてくるリンク、公式によく似たドメイン、偽のエアドロップ、そして利益を保証すると約束する人や、手数料と引き換えに失った資産を取り戻すと持ちかける人には十分ご注意ください。',
        'ウォレットが不正に利用された可能性がある場合は、残りの資産をすぐに新しいウォレットへ移し、アプリ内に記載された公式窓口からサポートへご連絡ください。',
      ),
      ko: p(
        '지갑의 시드 구문(복구 구문)과 개인 키는 자산에 대한 모든 권한을 의미합니다. 이를 알고 있는 사람은 누구나 자산을 옮길 수 있으며, 온체인 전송은 되돌릴 수 없습니다.',
        'NADI 직원, 커뮤니티 관리자, 고객 지원 담당자는 채팅, 이메일, 전화, 소셜 미디어 등 어떤 방법으로도 시드 구문이나 개인 키를 요구하지 않습니다. 이를 요구하는 사람은 사기를 시도하는 것입니다. 웹사이트, 양식, 채팅 창에 시드 구문을 절대 입력하지 마세요.',
        '지갑 연결과 메시지 서명은 NADI 공식 사이트에서만 하세요. 서명하기 전에 지갑에 표시되는 내용을 반드시 확인하세요. NADI 로그인에는 일반 텍스트로 된 로그인 메시지 서명만 필요하며, 이 서명은 전송이나 토큰 승인(Approve)을 허용하지 않습니다. 직접 결제를 시작하지 않았는데 지갑에서 토큰 사용 승인을 요청한다면 거부하세요.',
        '개인 메시지로 받은 링크, 공식 사이트와 비슷한 도메인, 가짜 에어드롭, 그리고 수익을 보장한다고 약속하거나 수수료를 받고 잃어버린 자산을 되찾아 주겠다는 사람을 조심하세요.',
        '지갑이 유출되었다고 의심되면 남은 자산을 즉시 새 지갑으로 옮기고, 앱에 안내된 공식 채널을 통해 고객 지원팀에 문의하세요.',
      ),
      th: p(
        'วลีกู้คืน (Seed Phrase) และคีย์ส่วนตัว (Private Key) ของวอลเล็ตคือสิ่งที่ให้สิทธิ์ควบคุมสินทรัพย์ของคุณทั้งหมด ผู้ที่ได้ข้อมูลเหล่านี้ไปสามารถโอนเงินของคุณได้ และการโอนบนเชนไม่สามารถย้อนกลับได้',
        'เจ้าหน้าที่ ผู้ดูแลชุมชน และฝ่ายบริการลูกค้าของ NADI จะไม่ขอวลีกู้คืนหรือคีย์ส่วนตัวของคุณ ไม่ว่าจะผ่านแชท อีเมล โทรศัพท์ หรือโซเชียลมีเดีย ผู้ที่ขอข้อมูลเหล่านี้คือผู้ที่พยายามหลอกลวง อย่าพิมพ์วลีกู้คืนลงในเว็บไซต์ แบบฟอร์ม หรือหน้าต่างแชทใด ๆ',
        'เชื่อมต่อวอลเล็ตและลงนามข้อความบนเว็บไซต์ทางการของ NADI เท่านั้น ก่อนลงนาม โปรดอ่านสิ่งที่วอลเล็ตแสดงให้ละเอียด การเข้าสู่ระบบ NADI ต้องลงนามเพียงข้อความเข้าสู่ระบบที่เป็นข้อความธรรมดาเท่านั้น ซึ่งไม่มีการอนุญาตให้โอนเงินหรืออนุมัติการใช้โทเคน (Approve) หากวอลเล็ตขอให้คุณอนุมัติการใช้โทเคนทั้งที่คุณไม่ได้เริ่มการชำระเงินเอง ให้ปฏิเสธคำขอนั้น',
        'ระวังลิงก์ที่ส่งมาทางข้อความส่วนตัว โดเมนที่เลียนแบบเว็บไซต์ทางการ แอร์ดรอปปลอม และผู้ที่สัญญาว่าจะได้กำไรแน่นอนหรือเสนอจะกู้คืนเงินที่สูญหายโดยเรียกเก็บค่าธรรมเนียม',
        'หากคุณสงสัยว่าวอลเล็ตถูกเจาะ ให้ย้ายสินทรัพย์ที่เหลือไปยังวอลเล็ตใหม่ทันที และติดต่อฝ่ายบริการลูกค้าผ่านช่องทางทางการที่ระบุไว้ในแอป',
      ),
      pt: p(
        'A frase-semente da sua carteira (também chamada de frase de recuperação) e a sua chave privada dão controle total sobre os seus ativos. Qualquer pessoa que as tenha pode movimentar os seus fundos, e transferências on-chain não podem ser revertidas.',
        'A equipe, os moderadores e os atendentes de suporte do NADI nunca vão pedir a sua frase-semente ou chave privada, seja por chat, e-mail, telefone ou redes sociais. Quem pedir está tentando aplicar um golpe. Nunca digite sua frase-semente em sites, formulários ou janelas de chat.',
        'Conecte sua carteira e assine mensagens somente no site oficial do NADI. Antes de assinar, leia o que a carteira mostra: para entrar no NADI basta assinar uma mensagem de login em texto simples, que nunca autoriza uma transferência nem uma aprovação de tokens. Se a carteira pedir aprovação para gastar seus tokens sem que você tenha iniciado um pagamento, rejeite a solicitação.',
        'Desconfie de links enviados por mensagem privada, domínios parecidos com o oficial, airdrops falsos e de qualquer pessoa que prometa lucro garantido ou se ofereça para recuperar fundos perdidos mediante pagamento.',
        'Se você suspeitar que sua carteira foi comprometida, transfira imediatamente os ativos restantes para uma nova carteira e entre em contato com o suporte pelos canais oficiais indicados no app.',
      ),
      id: p(
        'Frasa pemulihan (seed phrase) dan kunci privat dompet Anda memberikan kendali penuh atas aset Anda. Siapa pun yang memilikinya dapat memindahkan dana Anda, dan transfer on-chain tidak dapat dibatalkan.',
        'Staf, moderator, dan petugas dukungan NADI tidak akan pernah meminta frasa pemulihan atau kunci privat Anda, baik melalui chat, email, telepon, maupun media sosial. Siapa pun yang memintanya sedang mencoba menipu. Jangan pernah mengetikkan frasa pemulihan Anda di situs web, formulir, atau jendela chat.',
        'Hubungkan dompet dan tanda tangani pesan hanya di situs resmi NADI. Sebelum menandatangani, baca apa yang ditampilkan dompet Anda: login ke NADI hanya memerlukan tanda tangan pada pesan login berupa teks biasa, yang tidak pernah mengotorisasi transfer maupun persetujuan token. Jika dompet meminta Anda menyetujui penggunaan token padahal Anda tidak memulai pembayaran, tolak permintaan tersebut.',
        'Waspadai tautan yang dikirim lewat pesan pribadi, domain tiruan, airdrop palsu, serta siapa pun yang menjanjikan keuntungan pasti atau menawarkan pemulihan dana yang hilang dengan imbalan biaya.',
        'Jika Anda menduga dompet Anda telah dibobol, segera pindahkan aset yang tersisa ke dompet baru dan hubungi dukungan melalui saluran resmi yang tercantum di aplikasi.',
      ),
      vn: p(
        'Cụm từ khôi phục (seed phrase) và khóa riêng tư của ví cho phép toàn quyền kiểm soát tài sản của bạn. Bất kỳ ai có được chúng đều có thể chuyển tiền của bạn đi, và giao dịch chuyển tiền trên chuỗi không thể hoàn tác.',
        'Nhân viên, quản trị viên cộng đồng và bộ phận hỗ trợ của NADI sẽ không bao giờ yêu cầu cụm từ khôi phục hay khóa riêng tư của bạn, dù qua tin nhắn, email, điện thoại hay mạng xã hội. Bất kỳ ai yêu cầu những thông tin này đều đang có ý định lừa đảo. Tuyệt đối không nhập cụm từ khôi phục vào bất kỳ trang web, biểu mẫu hay cửa sổ trò chuyện nào.',
        'Chỉ kết nối ví và ký thông điệp trên trang web chính thức của NADI. Trước khi ký, hãy đọc kỹ nội dung ví hiển thị: đăng nhập NADI chỉ yêu cầu ký một thông điệp đăng nhập dạng văn bản thuần, không bao giờ cho phép chuyển tiền hay phê duyệt token. Nếu ví yêu cầu bạn phê duyệt chi tiêu token trong khi bạn không tự khởi tạo thanh toán, hãy từ chối yêu cầu đó.',
        'Hãy cảnh giác với các đường link gửi qua tin nhắn riêng, tên miền giả mạo, airdrop giả và bất kỳ ai hứa hẹn lợi nhuận đảm bảo hoặc đề nghị lấy lại tiền bị mất với điều kiện trả phí.',
        'Nếu bạn nghi ngờ ví của mình đã bị xâm phạm, hãy chuyển ngay tài sản còn lại sang một ví mới và liên hệ bộ phận hỗ trợ qua các kênh chính thức được liệt kê trong ứng dụng.',
      ),
      ms: p(
        'Frasa pemulihan (seed phrase) dan kunci persendirian dompet anda memberikan kawalan penuh ke atas aset anda. Sesiapa yang memilikinya boleh memindahkan dana anda, dan pemindahan on-chain tidak boleh dibatalkan.',
        'Kakitangan, moderator dan ejen sokongan NADI tidak akan sekali-kali meminta frasa pemulihan atau kunci persendirian anda, sama ada melalui sembang, e-mel, telefon atau media sosial. Sesiapa yang memintanya sedang cuba menipu. Jangan sekali-kali menaip frasa pemulihan anda di mana-mana laman web, borang atau tetingkap sembang.',
        'Sambungkan dompet dan tandatangani mesej hanya di laman rasmi NADI. Sebelum menandatangani, baca apa yang dipaparkan oleh dompet anda: log masuk ke NADI hanya memerlukan tandatangan pada mesej log masuk dalam teks biasa, yang tidak sekali-kali membenarkan pemindahan atau kelulusan token. Jika dompet meminta anda meluluskan perbelanjaan token sedangkan anda tidak memulakan sebarang pembayaran, tolak permintaan tersebut.',
        'Berhati-hati dengan pautan yang dihantar melalui mesej peribadi, domain tiruan, airdrop palsu, dan sesiapa yang menjanjikan keuntungan terjamin atau menawarkan untuk mendapatkan semula dana yang hilang dengan bayaran.',
        'Jika anda mengesyaki dompet anda telah dikompromi, segera pindahkan baki aset ke dompet baharu dan hubungi pasukan sokongan melalui saluran rasmi yang disenaraikan dalam aplikasi.',
      ),
    },
  },

  // 3. NADI chain mainnet upgrade maintenance
  {
    key: 'chain-upgrade',
    pinned: false,
    daysAgo: 1,
    title: {
      tw: 'NADI 鏈主網升級維護公告',
      en: 'NADI chain mainnet upgrade: scheduled maintenance',
      zh: 'NADI 链主网升级维护公告',
      jp: 'NADIチェーン メインネットアップグレードに伴うメンテナンスのお知らせ',
      ko: 'NADI 체인 메인넷 업그레이드 점검 안내',
      th: 'ประกาศปิดปรับปรุงระบบเพื่ออัปเกรดเมนเน็ต NADI Chain',
      pt: 'Atualização da mainnet da NADI Chain: manutenção programada',
      id: 'Peningkatan mainnet NADI Chain: pemeliharaan terjadwal',
      vn: 'Nâng cấp mainnet NADI Chain: lịch bảo trì',
      ms: 'Naik taraf mainnet NADI Chain: penyelenggaraan berjadual',
    },
    content: {
      tw: p(
        '為提升出塊穩定性與節點同步效能，NADI 鏈主網即將進行升級。維護期間，App 內部分功能將暫停服務。',
        '本次升級預計耗時約四小時。維護開始前，App 內將顯示倒數提示；所有服務恢復後，我們將另行發布公告。',
        '維護期間，NADI 鏈上的充值與提現、透過 NADI 鏈進行的鏈上支付，以及 NADI/USDT 現貨交易將暫停。未成交的限價單將保留在委託簿中，如需取消請事先操作。BSC 網路的充值與提現不受影響。',
        '本次升級不會影響您的餘額、算力、節點及存幣資產。維護期間的挖礦與存幣記錄將於升級完成後統一結算，因此相關記錄可能較平時延遲顯示。',
        '您無需進行任何操作，本次升級也不涉及代幣兌換。NADI 絕不會要求您輸入助記詞來「遷移」、「驗證」或「重新同步」錢包，任何此類訊息皆為詐騙。',
        '感謝您的耐心與支持。',
      ),
      en: p(
        'The NADI chain mainnet will be upgraded to improve block production stability and node synchronization. Some functions in the app will be paused during the maintenance window.',
        'The upgrade is expected to take about four hours. A countdown notice will appear in the app before maintenance begins, and we will publish another notice once all services have resumed.',
        'During the window, recharges and withdrawals on the NADI chain, on-chain payments made through the NADI chain, and NADI/USDT spot trading will be temporarily suspended. Open limit orders stay on the order book unless you cancel them beforehand. Recharges and withdrawals on BSC are not affected.',
        'The upgrade does not affect your balances, mining power, nodes or savings positions. Mining and savings records for the maintenance period will be settled after the upgrade is complete, so these entries may appear later than usual.',
        'You do not need to do anything, and there is no token swap. NADI will never ask you to “migrate”, “validate” or “resynchronize” your wallet by entering your seed phrase; any message asking for this is a scam.',
        'Thank you for your patience.',
      ),
      zh: p(
        '为提升出块稳定性和节点同步性能，NADI 链主网即将进行升级。维护期间，App 内部分功能将暂停服务。',
        '本次升级预计耗时约四小时。维护开始前，App 内将显示倒计时提示；所有服务恢复后，我们将另行发布公告。',
        '维护期间，NADI 链上的充值与提现、通过 NADI 链进行的链上支付，以及 NADI/USDT 现货交易将暂停。未成交的限价单将保留在订单簿中，如需撤单请提前操作。BSC 网络的充值与提现不受影响。',
        '本次升级不会影响您的余额、算力、节点及存币资产。维护期间的挖矿和存币记录将在升级完成后统一结算，因此相关记录可能比平时延迟显示。',
        '您无需进行任何操作，本次升级也不涉及代币兑换。NADI 绝不会要求您输入助记词来“迁移”“验证”或“重新同步”钱包，任何此类消息均为诈骗。',
        '感谢您的耐心与支持。',
      ),
      jp: p(
        'ブロック生成の安定性とノード同期の改善を目的として、NADIチェーンのメインネットをアップグレードいたします。メンテナンス中は、アプリの一部機能を一時停止します。',
        'アップグレードには約4時間かかる見込みです。メンテナンス開始前にアプリ内でカウントダウン通知を表示し、すべてのサービスが再開した時点で改めてお知らせいたします。',
        'メンテナンス中は、NADIチェーンでの入金・出金、NADIチェーンを経由したオンチェーン決済、およびNADI/USDT現物取引を一時停止します。未約定の指値注文は、事前にキャンセルしない限り板に残ります。BSCでの入金・出金には影響はありません。',
        '今回のアップグレードによって、残高、マイニングパワー、ノード、預け入れ中の資産に影響はありません。メンテナンス期間中のマイニングおよび預け入れの記録はアップグレード完了後に反映されるため、通常より表示が遅れる場合があります。',
        'お客様による操作は必要なく、トークンのスワップもありません。NADIがシードフレーズの入力によってウォレットの「移行」「認証」「再同期」を求めることは絶対にありません。そのようなメッセージはすべて詐欺です。',
        'ご理解とご協力をお願いいたします。',
      ),
      ko: p(
        '블록 생성 안정성과 노드 동기화를 개선하기 위해 NADI 체인 메인넷 업그레이드를 진행합니다. 점검 시간 동안 앱의 일부 기능이 일시 중단됩니다.',
        '업그레이드에는 약 4시간이 소요될 예정입니다. 점검 시작 전 앱에 카운트다운 알림이 표시되며, 모든 서비스가 재개되면 별도로 공지해 드리겠습니다.',
        '점검 시간 동안 NADI 체인 충전 및 출금, NADI 체인을 통한 온체인 결제, NADI/USDT 현물 거래가 일시 중단됩니다. 미체결 지정가 주문은 미리 취소하지 않는 한 호가창에 그대로 유지됩니다. BSC 충전 및 출금은 영향을 받지 않습니다.',
        '이번 업그레이드는 잔액, 채굴력, 노드, 예치 자산에 영향을 주지 않습니다. 점검 기간의 채굴 및 예치 기록은 업그레이드 완료 후 정산되므로 평소보다 늦게 표시될 수 있습니다.',
        "별도로 조치하실 사항은 없으며 토큰 스왑도 없습니다. NADI는 시드 구문을 입력해 지갑을 '마이그레이션', '인증', '재동기화'하라고 절대 요청하지 않습니다. 이러한 메시지는 모두 사기입니다.",
        '양해해 주셔서 감사합니다.',
      ),
      th: p(
        'เมนเน็ตของ NADI Chain จะได้รับการอัปเกรดเพื่อเพิ่มความเสถียรในการผลิตบล็อกและการซิงค์ของโหนด ในช่วงปิดปรับปรุงระบบ ฟังก์ชันบางส่วนในแอปจะหยุดให้บริการชั่วคราว',
        'คาดว่าการอัปเกรดจะใช้เวลาประมาณสี่ชั่วโมง แอปจะแสดงการแจ้งเตือนนับถอยหลังก่อนเริ่มปิดปรับปรุง และเราจะประกาศอีกครั้งเมื่อทุกบริการกลับมาใช้งานได้ตามปกติ',
        'ระหว่างการปิดปรับปรุง การเติมเงินและถอนเงินบน NADI Chain การชำระเงินบนเชนผ่าน NADI Chain และการซื้อขาย Spot คู่ NADI/USDT จะถูกระงับชั่วคราว คำสั่งซื้อขายแบบลิมิตที่ยังไม่จับคู่จะยังคงอยู่ในสมุดคำสั่งซื้อขาย เว้นแต่คุณจะยกเลิกไว้ก่อน การเติมเงินและถอนเงินบน BSC ไม่ได้รับผลกระทบ',
        'การอัปเกรดนี้ไม่ส่งผลต่อยอดคงเหลือ พลังขุด โหนด หรือรายการออมของคุณ บันทึกการขุดและการออมในช่วงปิดปรับปรุงจะได้รับการคำนวณหลังการอัปเกรดเสร็จสิ้น จึงอาจแสดงช้ากว่าปกติ',
        'คุณไม่จำเป็นต้องดำเนินการใด ๆ และไม่มีการสลับโทเคน (Token Swap) NADI จะไม่ขอให้คุณ “ย้าย” “ยืนยัน” หรือ “ซิงค์ใหม่” วอลเล็ตด้วยการกรอกวลีกู้คืนโดยเด็ดขาด ข้อความใดที่ขอสิ่งนี้ถือเป็นการหลอกลวง',
        'ขอบคุณสำหรับความอดทนและความเข้าใจ',
      ),
      pt: p(
        'A mainnet da NADI Chain passará por uma atualização para melhorar a estabilidade da produção de blocos e a sincronização dos nós. Algumas funções do app ficarão pausadas durante a janela de manutenção.',
        'A atualização deve levar cerca de quatro horas. Um aviso com contagem regressiva aparecerá no app antes do início da manutenção, e publicaremos um novo comunicado assim que todos os serviços forem restabelecidos.',
        'Durante a janela, os depósitos e saques na NADI Chain, os pagamentos on-chain feitos pela NADI Chain e a negociação à vista de NADI/USDT ficarão temporariamente suspensos. Ordens limitadas em aberto permanecem no livro de ofertas, a menos que você as cancele antes. Depósitos e saques na BSC não serão afetados.',
        'A atualização não afeta seus saldos, poder de mineração, nós nem posições de poupança. Os registros de mineração e de poupança do período de manutenção serão liquidados após a conclusão da atualização, por isso podem aparecer mais tarde do que o normal.',
        'Você não precisa fazer nada, e não haverá troca de tokens. O NADI nunca pedirá que você “migre”, “valide” ou “ressincronize” sua carteira digitando sua frase-semente; qualquer mensagem pedindo isso é golpe.',
        'Agradecemos a sua paciência.',
      ),
      id: p(
        'Mainnet NADI Chain akan ditingkatkan untuk memperbaiki stabilitas produksi blok dan sinkronisasi node. Sebagian fungsi di aplikasi akan dihentikan sementara selama masa pemeliharaan.',
        'Peningkatan ini diperkirakan memakan waktu sekitar empat jam. Pemberitahuan hitung mundur akan muncul di aplikasi sebelum pemeliharaan dimulai, dan kami akan menerbitkan pengumuman lain setelah semua layanan kembali normal.',
        'Selama masa pemeliharaan, isi ulang dan penarikan di NADI Chain, pembayaran on-chain melalui NADI Chain, serta perdagangan spot NADI/USDT akan ditangguhkan sementara. Order limit yang masih terbuka tetap berada di buku order kecuali Anda membatalkannya sebelumnya. Isi ulang dan penarikan di BSC tidak terpengaruh.',
        'Peningkatan ini tidak memengaruhi saldo, daya tambang, node, maupun posisi tabungan Anda. Catatan penambangan dan tabungan selama masa pemeliharaan akan diselesaikan setelah peningkatan rampung, sehingga catatan tersebut mungkin muncul lebih lambat dari biasanya.',
        'Anda tidak perlu melakukan apa pun, dan tidak ada penukaran token. NADI tidak akan pernah meminta Anda “memigrasi”, “memvalidasi”, atau “menyinkronkan ulang” dompet dengan memasukkan frasa pemulihan; pesan apa pun yang meminta hal ini adalah penipuan.',
        'Terima kasih atas kesabaran Anda.',
      ),
      vn: p(
        'Mainnet của NADI Chain sẽ được nâng cấp nhằm cải thiện độ ổn định khi tạo khối và khả năng đồng bộ node. Một số chức năng trong ứng dụng sẽ tạm dừng trong thời gian bảo trì.',
        'Quá trình nâng cấp dự kiến kéo dài khoảng bốn giờ. Ứng dụng sẽ hiển thị thông báo đếm ngược trước khi bảo trì bắt đầu, và chúng tôi sẽ đăng thông báo mới khi tất cả dịch vụ hoạt động trở lại.',
        'Trong thời gian bảo trì, nạp và rút tiền trên NADI Chain, thanh toán on-chain qua NADI Chain và giao dịch giao ngay NADI/USDT sẽ tạm ngưng. Các lệnh giới hạn đang mở vẫn nằm trên sổ lệnh trừ khi bạn hủy trước. Nạp và rút tiền trên BSC không bị ảnh hưởng.',
        'Việc nâng cấp không ảnh hưởng đến số dư, sức mạnh đào, node hay các khoản tiết kiệm của bạn. Dữ liệu đào và tiết kiệm trong thời gian bảo trì sẽ được quyết toán sau khi nâng cấp hoàn tất, vì vậy các bản ghi này có thể hiển thị muộn hơn bình thường.',
        'Bạn không cần thực hiện thao tác nào và không có đợt hoán đổi token nào. NADI sẽ không bao giờ yêu cầu bạn “di chuyển”, “xác thực” hay “đồng bộ lại” ví bằng cách nhập cụm từ khôi phục; mọi tin nhắn yêu cầu điều này đều là lừa đảo.',
        'Cảm ơn sự kiên nhẫn của bạn.',
      ),
      ms: p(
        'Mainnet NADI Chain akan dinaik taraf untuk meningkatkan kestabilan penghasilan blok dan penyegerakan nod. Sesetengah fungsi dalam aplikasi akan dihentikan sementara sepanjang tempoh penyelenggaraan.',
        'Naik taraf ini dijangka mengambil masa kira-kira empat jam. Notis kira detik akan dipaparkan dalam aplikasi sebelum penyelenggaraan bermula, dan kami akan menerbitkan notis baharu sebaik sahaja semua perkhidmatan pulih.',
        'Sepanjang tempoh ini, tambah nilai dan pengeluaran di NADI Chain, pembayaran on-chain melalui NADI Chain, serta dagangan spot NADI/USDT akan digantung buat sementara. Pesanan had yang masih terbuka kekal dalam buku pesanan melainkan anda membatalkannya lebih awal. Tambah nilai dan pengeluaran di BSC tidak terjejas.',
        'Naik taraf ini tidak menjejaskan baki, kuasa perlombongan, nod atau kedudukan simpanan anda. Rekod perlombongan dan simpanan bagi tempoh penyelenggaraan akan diselesaikan selepas naik taraf selesai, jadi rekod tersebut mungkin dipaparkan lewat daripada biasa.',
        'Anda tidak perlu mengambil sebarang tindakan, dan tiada pertukaran token. NADI tidak akan sekali-kali meminta anda “memindahkan”, “mengesahkan” atau “menyegerakkan semula” dompet dengan memasukkan frasa pemulihan; sebarang mesej yang meminta perkara ini ialah penipuan.',
        'Terima kasih atas kesabaran anda.',
      ),
    },
  },

  // 4. Super Miner node sale opening
  {
    key: 'super-miner-sale',
    pinned: false,
    daysAgo: 26,
    title: {
      tw: '超級礦工節點開放認購',
      en: 'Super Miner node sale is now open',
      zh: '超级矿工节点开放认购',
      jp: 'スーパーマイナーノードの販売を開始しました',
      ko: '슈퍼 마이너 노드 판매 시작',
      th: 'เปิดจำหน่ายโหนด Super Miner แล้ว',
      pt: 'Venda de nós Super Miner aberta',
      id: 'Penjualan node Super Miner resmi dibuka',
      vn: 'Chính thức mở bán node Super Miner',
      ms: 'Jualan nod Super Miner kini dibuka',
    },
    content: {
      tw: p(
        '超級礦工節點現已在「節點」頁面開放認購。節點分為精英、核心、創世三個等級，每個等級的席位數量有限，剩餘名額會即時顯示在節點列表中。',
        '每個節點的詳情頁面列有該等級的完整條款，包括 USDT 質押金額、可獲得的帳戶等級（T 等級）、提現手續費分成比例、每日挖礦比例，以及 USDT 質押金返還所需的天數。節點持有者另可依詳情頁面規則享有高級代理權益、節點分紅及 MEME 空投翻倍。',
        '節點可使用帳戶餘額支付，或透過瀏覽器錢包在 BSC 或 NADI 鏈上進行鏈上支付。進行鏈上支付時，請在確認前核對錢包中的金額與網路。訂單一經確認即為最終交易。',
        '節點獎勵取決於網路活動情況，並非保證收益。請仔細閱讀各等級條款，並僅以能夠在整個質押期間內投入的資金參與。',
        '如對訂單有任何疑問，請透過 App 內的官方客服管道與我們聯繫。',
      ),
      en: p(
        'Super Miner node sales are now open on the Node page. Nodes come in three tiers: elite, core and genesis. Each tier has a limited number of seats, and the remaining quota is shown on the node list in real time.',
        "Each node's detail page sets out the full terms for that tier, including the stake amount in USDT, the account level (T-level) it grants, its share of withdrawal fees, its daily mining percentage, and the number of days after which the USDT stake is returned. Node holders also receive advanced-agent rights, node dividends and doubled MEME airdrops, according to the rules on the detail page.",
        'Nodes can be paid for from your account balance, or on-chain through your browser wallet on BSC or the NADI chain. For on-chain payments, check the amount and network in your wallet before confirming. A purchase is final once the order has been confirmed.',
        'Node rewards depend on network activity and are not guaranteed. Please read the terms for each tier carefully, and only take part with funds you can afford to commit for the full stake period.',
        'If you have questions about an order, please contact us through the official support channels in the app.',
      ),
      zh: p(
        '超级矿工节点现已在“节点”页面开放认购。节点分为精英、核心、创世三个等级，每个等级的席位数量有限，剩余名额会实时显示在节点列表中。',
        '每个节点的详情页列有该等级的完整条款，包括 USDT 质押金额、可获得的账户等级（T 等级）、提现手续费分成比例、每日挖矿比例，以及 USDT 质押金返还所需的天数。节点持有者还可按详情页规则享有高级代理权益、节点分红及 MEME 空投翻倍。',
        '节点可使用账户余额支付，或通过浏览器钱包在 BSC 或 NADI 链上进行链上支付。进行链上支付时，请在确认前核对钱包中的金额和网络。订单一经确认即为最终交易。',
        '节点奖励取决于网络活跃情况，并不保证。请仔细阅读各等级条款，并仅使用能够在整个质押期内投入的资金参与。',
        '如对订单有任何疑问，请通过 App 内的官方客服渠道联系我们。',
      ),
      jp: p(
        'スーパーマイナーノードの販売を「ノード」ページで開始しました。ノードにはエリート、コア、ジェネシスの3つのティアがあります。各ティアの枠数には限りがあり、残りの枠はノード一覧にリアルタイムで表示されます。',
        '各ノードの詳細ページには、USDT建てのステーク額、付与されるアカウントレベル（Tレベル）、出金手数料の分配割合、1日あたりのマイニング比率、USDTのステークが返還されるまでの日数など、そのティアの条件がすべて記載されています。ノード保有者には、詳細ページのルールに基づき、上級エージェント権限、ノード配当、MEMEエアドロップの倍増も付与されます。',
        'ノードの代金は、アカウント残高から支払うか、ブラウザウォレットを使ってBSCまたはNADIチェーン上で支払うことができます。オンチェーンで支払う場合は、確定する前にウォレットで金額とネットワークをご確認ください。注文が確定した時点で購入は最終的なものとなります。',
        'ノード報酬はネットワークの稼働状況によって変動し、保証されるものではありません。各ティアの条件をよくお読みのうえ、ステーク期間中ずっと拠出し続けられる資金の範囲内でご参加ください。',
        'ご注文に関するご質問は、アプリ内の公式サポート窓口までお問い合わせください。',
      ),
      ko: p(
        "이제 '노드' 페이지에서 슈퍼 마이너 노드를 구매할 수 있습니다. 노드는 엘리트, 코어, 제네시스의 세 가지 등급으로 나뉩니다. 등급별 좌석 수는 한정되어 있으며, 남은 수량은 노드 목록에 실시간으로 표시됩니다.",
        '각 노드의 상세 페이지에서 해당 등급의 전체 조건을 확인할 수 있습니다. 여기에는 USDT 스테이크 금액, 부여되는 계정 등급(T 등급), 출금 수수료 배분 비율, 일일 채굴 비율, USDT 스테이크가 반환되기까지의 일수가 포함됩니다. 노드 보유자는 상세 페이지의 규칙에 따라 상급 에이전트 권한, 노드 배당, MEME 에어드롭 2배 혜택도 받습니다.',
        '노드 대금은 계정 잔액으로 결제하거나, 브라우저 지갑을 통해 BSC 또는 NADI 체인에서 온체인으로 결제할 수 있습니다. 온체인 결제 시에는 확인 전에 지갑에서 금액과 네트워크를 꼭 확인하세요. 주문이 확정되면 구매는 취소할 수 없습니다.',
        '노드 보상은 네트워크 활동에 따라 달라지며 보장되지 않습니다. 각 등급의 조건을 꼼꼼히 읽어 보시고, 스테이크 기간 전체 동안 묶어 둘 수 있는 자금으로만 참여하세요.',
        '주문 관련 문의는 앱 내 공식 고객 지원 채널을 이용해 주세요.',
      ),
      th: p(
        'ขณะนี้เปิดจำหน่ายโหนด Super Miner แล้วที่หน้าโหนด โหนดแบ่งออกเป็นสามระดับ ได้แก่ Elite, Core และ Genesis แต่ละระดับมีจำนวนที่นั่งจำกัด และโควตาที่เหลือจะแสดงแบบเรียลไทม์ในรายการโหนด',
        'หน้ารายละเอียดของแต่ละโหนดจะแสดงเงื่อนไขทั้งหมดของระดับนั้น ได้แก่ จำนวนเงินวางค้ำประกัน (Stake) เป็น USDT ระดับบัญชี (T-level) ที่จะได้รับ ส่วนแบ่งค่าธรรมเนียมการถอน เปอร์เซ็นต์การขุดรายวัน และจำนวนวันที่จะได้รับเงินวางค้ำประกัน USDT คืน ผู้ถือโหนดยังได้รับสิทธิ์ตัวแทนขั้นสูง เงินปันผลจากโหนด และแอร์ดรอป MEME เป็นสองเท่า ตามกติกาที่ระบุในหน้ารายละเอียด',
        'คุณสามารถชำระค่าโหนดด้วยยอดเงินในบัญชี หรือชำระบนเชนผ่านวอลเล็ตบนเบราว์เซอร์บน BSC หรือ NADI Chain สำหรับการชำระเงินบนเชน โปรดตรวจสอบจำนวนเงินและเครือข่ายในวอลเล็ตก่อนยืนยัน การซื้อถือเป็นที่สิ้นสุดเมื่อยืนยันคำสั่งซื้อแล้ว',
        'รางวัลจากโหนดขึ้นอยู่กับกิจกรรมของเครือข่ายและไม่มีการรับประกัน โปรดอ่านเงื่อนไขของแต่ละระดับอย่างรอบคอบ และเข้าร่วมด้วยเงินที่คุณสามารถวางไว้ได้ตลอดระยะเวลาค้ำประกันเท่านั้น',
        'หากมีคำถามเกี่ยวกับคำสั่งซื้อ โปรดติดต่อเราผ่านช่องทางบริการลูกค้าอย่างเป็นทางการในแอป',
      ),
      pt: p(
        'A venda de nós Super Miner está aberta na página Nós. Os nós têm três níveis: elite, core e genesis. Cada nível tem um número limitado de vagas, e a cota restante aparece em tempo real na lista de nós.',
        'A página de detalhes de cada nó traz todas as condições daquele nível, incluindo o valor do stake em USDT, o nível de conta (nível T) concedido, a participação nas taxas de saque, o percentual diário de mineração e o número de dias após os quais o stake em USDT é devolvido. Os detentores de nós também recebem direitos de agente avançado, dividendos de nó e airdrops de MEME em dobro, conforme as regras da página de detalhes.',
        'Os nós podem ser pagos com o saldo da conta ou on-chain pela carteira do navegador, na BSC ou na NADI Chain. Em pagamentos on-chain, confira o valor e a rede na carteira antes de confirmar. A compra é definitiva depois que o pedido é confirmado.',
        'As recompensas dos nós dependem da atividade da rede e não são garantidas. Leia com atenção as condições de cada nível e participe apenas com recursos que você possa manter comprometidos durante todo o período do stake.',
        'Se tiver dúvidas sobre um pedido, entre em contato pelos canais oficiais de suporte no app.',
      ),
      id: p(
        'Penjualan node Super Miner kini dibuka di halaman Node. Node tersedia dalam tiga tingkat: Elite, Core, dan Genesis. Setiap tingkat memiliki jumlah slot terbatas, dan kuota yang tersisa ditampilkan secara real-time di daftar node.',
        'Halaman detail setiap node memuat ketentuan lengkap untuk tingkat tersebut, termasuk jumlah stake dalam USDT, level akun (level T) yang diberikan, bagian dari biaya penarikan, persentase penambangan harian, serta jumlah hari hingga stake USDT dikembalikan. Pemegang node juga memperoleh hak agen lanjutan, dividen node, dan airdrop MEME berlipat dua, sesuai aturan di halaman detail.',
        'Node dapat dibayar menggunakan saldo akun, atau secara on-chain melalui dompet browser di BSC atau NADI Chain. Untuk pembayaran on-chain, periksa jumlah dan jaringan di dompet Anda sebelum mengonfirmasi. Pembelian bersifat final setelah pesanan dikonfirmasi.',
        'Hadiah node bergantung pada aktivitas jaringan dan tidak dijamin. Harap baca ketentuan setiap tingkat dengan saksama, dan hanya berpartisipasi dengan dana yang sanggup Anda tempatkan selama seluruh periode stake.',
        'Jika ada pertanyaan tentang pesanan, silakan hubungi kami melalui saluran dukungan resmi di aplikasi.',
      ),
      vn: p(
        'Node Super Miner đã chính thức mở bán tại trang Node. Node gồm ba cấp: Elite, Core và Genesis. Mỗi cấp có số suất giới hạn và hạn mức còn lại được hiển thị theo thời gian thực trong danh sách node.',
        'Trang chi tiết của mỗi node nêu đầy đủ điều khoản của cấp đó, bao gồm số tiền stake bằng USDT, cấp tài khoản (cấp T) được cấp, tỷ lệ chia sẻ phí rút tiền, tỷ lệ đào hằng ngày và số ngày sau đó khoản stake USDT được hoàn trả. Người nắm giữ node còn nhận quyền đại lý cấp cao, cổ tức node và airdrop MEME nhân đôi theo quy tắc trên trang chi tiết.',
        'Bạn có thể thanh toán node bằng số dư tài khoản hoặc thanh toán on-chain qua ví trình duyệt trên BSC hoặc NADI Chain. Với thanh toán on-chain, hãy kiểm tra số tiền và mạng lưới trong ví trước khi xác nhận. Giao dịch mua là cuối cùng sau khi đơn hàng được xác nhận.',
        'Phần thưởng node phụ thuộc vào hoạt động của mạng lưới và không được đảm bảo. Vui lòng đọc kỹ điều khoản của từng cấp và chỉ tham gia bằng số tiền bạn có thể cam kết trong suốt thời gian stake.',
        'Nếu có thắc mắc về đơn hàng, vui lòng liên hệ qua các kênh hỗ trợ chính thức trong ứng dụng.',
      ),
      ms: p(
        'Jualan nod Super Miner kini dibuka di halaman Nod. Nod terbahagi kepada tiga peringkat: Elite, Core dan Genesis. Setiap peringkat mempunyai bilangan tempat yang terhad, dan kuota yang tinggal dipaparkan secara masa nyata dalam senarai nod.',
        'Halaman butiran setiap nod menyatakan syarat penuh bagi peringkat tersebut, termasuk jumlah cagaran (stake) dalam USDT, tahap akaun (tahap T) yang diberikan, bahagian daripada yuran pengeluaran, peratusan perlombongan harian, dan bilangan hari sebelum cagaran USDT dipulangkan. Pemegang nod juga menerima hak ejen lanjutan, dividen nod dan airdrop MEME berganda, mengikut peraturan di halaman butiran.',
        'Nod boleh dibayar menggunakan baki akaun, atau secara on-chain melalui dompet pelayar di BSC atau NADI Chain. Untuk pembayaran on-chain, semak jumlah dan rangkaian dalam dompet anda sebelum mengesahkan. Pembelian adalah muktamad sebaik sahaja pesanan disahkan.',
        'Ganjaran nod bergantung pada aktiviti rangkaian dan tidak dijamin. Sila baca syarat setiap peringkat dengan teliti, dan sertai hanya dengan dana yang mampu anda peruntukkan sepanjang tempoh cagaran.',
        'Jika anda mempunyai pertanyaan tentang pesanan, sila hubungi kami melalui saluran sokongan rasmi dalam aplikasi.',
      ),
    },
  },

  // 5. Referral programme rules
  {
    key: 'referral-program',
    pinned: false,
    daysAgo: 12,
    title: {
      tw: '推薦計畫說明：團隊邀請規則',
      en: 'Referral program: how team invites work',
      zh: '推荐计划说明：团队邀请规则',
      jp: '紹介プログラム：チーム招待のしくみ',
      ko: '추천 프로그램: 팀 초대 규칙 안내',
      th: 'โปรแกรมแนะนำเพื่อน: กติกาการเชิญเข้าทีม',
      pt: 'Programa de indicação: como funcionam os convites',
      id: 'Program referal: cara kerja undangan tim',
      vn: 'Chương trình giới thiệu: quy tắc mời thành viên',
      ms: 'Program rujukan: cara jemputan pasukan berfungsi',
    },
    content: {
      tw: p(
        '每個 NADI 帳戶都有專屬的邀請碼與邀請連結，可在「個人中心」頁面查看。新用戶需使用邀請碼註冊，邀請他們的帳戶即成為其推薦人。',
        '直推成員是指使用您的邀請碼註冊的用戶；您的團隊則包含直推成員，以及他們再邀請的用戶。在「個人中心」頁面，您可以查看直推人數、團隊人數、個人業績、直推業績與團隊業績。',
        '業績依符合條件的購買計算，例如挖礦設備、超級礦工節點及銷毀挖礦。自有帳戶之間的劃轉、充值與提現不計入業績。數據會定期更新，訂單完成後可能需要一段時間才會顯示。',
        '推薦人於註冊後無法更改，請確認新用戶輸入正確的邀請碼。建立多個帳戶邀請自己，或以誤導方式推廣 NADI，均違反本計畫規則，相關業績可能會被移除。',
        '分享 NADI 時，請如實介紹。請勿向好友承諾任何收益或固定回報，並提醒他們絕不可將助記詞透露給任何人，包括您在內。',
      ),
      en: p(
        'Every NADI account has its own invite code and invite link, which you can find on the User page. New users register with an invite code, and the account that invited them becomes their referrer.',
        'Your direct referrals are the users who registered with your code. Your team includes your direct referrals and the users they invite in turn. On the User page you can see your direct count, team count, personal performance, direct performance and team performance.',
        'Performance is counted from qualifying purchases such as mining devices, Super Miner nodes and destroy mining. Transfers between your own accounts, recharges and withdrawals do not count. Figures are updated regularly and may take some time to appear after an order is completed.',
        'A referrer cannot be changed after registration, so please make sure new users enter the correct code. Creating multiple accounts to invite yourself, or promoting NADI in a misleading way, breaks the program rules, and the affected performance may be removed.',
        'When you share NADI, describe it honestly. Do not promise friends any profit or fixed return, and remind them never to share their seed phrase with anyone, including you.',
      ),
      zh: p(
        '每个 NADI 账户都有专属的邀请码和邀请链接，可在个人中心页面查看。新用户需使用邀请码注册，邀请他们的账户即成为其推荐人。',
        '直推成员是指使用您的邀请码注册的用户；您的团队则包括直推成员以及他们再邀请的用户。在个人中心页面，您可以查看直推人数、团队人数、个人业绩、直推业绩和团队业绩。',
        '业绩按符合条件的购买计算，例如挖矿设备、超级矿工节点和销毁挖矿。自有账户之间的划转、充值和提现不计入业绩。数据会定期更新，订单完成后可能需要一段时间才会显示。',
        '推荐人在注册后无法更改，请确保新用户输入正确的邀请码。创建多个账户邀请自己，或以误导方式推广 NADI，均违反本计划规则，相关业绩可能会被移除。',
        '分享 NADI 时，请如实介绍。请勿向好友承诺任何收益或固定回报，并提醒他们绝不要将助记词透露给任何人，包括您在内。',
      ),
      jp: p(
        'NADIのすべてのアカウントには専用の招待コードと招待リンクがあり、ユーザーページで確認できます。新規ユーザーは招待コードを使って登録し、招待したアカウントがその紹介者となります。',
        '直接紹介とは、あなたのコードで登録したユーザーのことです。チームには、直接紹介のユーザーと、そのユーザーがさらに招待したユーザーが含まれます。ユーザーページでは、直接紹介数、チーム人数、個人実績、直接紹介実績、チーム実績を確認できます。',
        '実績は、マイニングデバイス、スーパーマイナーノード、焼却マイニングなど、対象となる購入をもとに計算されます。ご自身のアカウント間の振替、入金、出金は対象外です。数値は定期的に更新され、注文完了後に反映されるまで時間がかかる場合があります。',
        '登録後に紹介者を変更することはできません。新規ユーザーが正しいコードを入力しているかご確認ください。複数のアカウントを作成して自分自身を招待すること、または誤解を招く方法でNADIを宣伝することはプログラムの規約違反となり、該当する実績が取り消される場合があります。',
        'NADIを紹介する際は、ありのままに説明してください。友達に利益や固定のリターンを約束せず、シードフレーズはあなたを含め誰にも教えないよう伝えてください。',
      ),
      ko: p(
        '모든 NADI 계정에는 고유한 초대 코드와 초대 링크가 있으며, 사용자 페이지에서 확인할 수 있습니다. 신규 사용자는 초대 코드로 가입하며, 초대한 계정이 해당 사용자의 추천인이 됩니다.',
        '직접 초대 회원은 회원님의 코드로 가입한 사용자입니다. 팀에는 직접 초대 회원과 그들이 다시 초대한 사용자가 포함됩니다. 사용자 페이지에서 직접 초대 수, 팀 인원, 개인 실적, 직접 초대 실적, 팀 실적을 확인할 수 있습니다.',
        '실적은 채굴 기기, 슈퍼 마이너 노드, 소각 채굴 등 대상 구매를 기준으로 집계됩니다. 본인 계정 간 이체, 충전, 출금은 포함되지 않습니다. 수치는 정기적으로 업데이트되며, 주문 완료 후 반영되기까지 시간이 걸릴 수 있습니다.',
        '가입 후에는 추천인을 변경할 수 없으므로 신규 사용자가 올바른 코드를 입력했는지 꼭 확인해 주세요. 여러 계정을 만들어 자신을 초대하거나 오해를 불러일으키는 방식으로 NADI를 홍보하는 행위는 프로그램 규칙 위반이며, 해당 실적은 삭제될 수 있습니다.',
        'NADI를 소개할 때는 사실대로 설명해 주세요. 친구에게 수익이나 확정 수익률을 약속하지 말고, 시드 구문은 회원님을 포함해 누구에게도 알려 주지 말라고 당부해 주세요.',
      ),
      th: p(
        'ทุกบัญชี NADI มีรหัสเชิญและลิงก์เชิญเป็นของตัวเอง ซึ่งดูได้ที่หน้าผู้ใช้ ผู้ใช้ใหม่ต้องสมัครด้วยรหัสเชิญ และบัญชีที่เชิญจะกลายเป็นผู้แนะนำของผู้ใช้นั้น',
        'สมาชิกที่เชิญโดยตรงคือผู้ใช้ที่สมัครด้วยรหัสของคุณ ส่วนทีมของคุณประกอบด้วยสมาชิกที่เชิญโดยตรงและผู้ใช้ที่พวกเขาเชิญต่อ ที่หน้าผู้ใช้ คุณสามารถดูจำนวนสมาชิกที่เชิญโดยตรง จำนวนสมาชิกในทีม ยอดผลงานส่วนตัว ยอดผลงานสายตรง และยอดผลงานของทีมได้',
        'ยอดผลงานคำนวณจากการซื้อที่เข้าเงื่อนไข เช่น อุปกรณ์ขุด โหนด Super Miner และการขุดแบบเผา (Destroy Mining) การโอนระหว่างบัญชีของคุณเอง การเติมเงิน และการถอนเงินจะไม่นับรวม ตัวเลขจะได้รับการอัปเดตเป็นระยะ และอาจใช้เวลาสักระยะกว่าจะแสดงหลังคำสั่งซื้อเสร็จสมบูรณ์',
        'ไม่สามารถเปลี่ยนผู้แนะนำได้หลังสมัครแล้ว โปรดตรวจสอบให้แน่ใจว่าผู้ใช้ใหม่กรอกรหัสถูกต้อง การสร้างหลายบัญชีเพื่อเชิญตัวเอง หรือการโปรโมต NADI ในลักษณะที่ทำให้เข้าใจผิด ถือเป็นการละเมิดกติกาของโปรแกรม และยอดผลงานที่เกี่ยวข้องอาจถูกยกเลิก',
        'เมื่อแนะนำ NADI ให้ผู้อื่น โปรดอธิบายตามความเป็นจริง อย่าสัญญาว่าเพื่อนจะได้กำไรหรือผลตอบแทนคงที่ และเตือนพวกเขาว่าอย่าเปิดเผยวลีกู้คืนให้ใครรู้ รวมถึงตัวคุณเองด้วย',
      ),
      pt: p(
        'Cada conta NADI tem um código de convite e um link de convite próprios, que você encontra na página do usuário. Novos usuários se cadastram com um código de convite, e a conta que os convidou passa a ser o seu indicador.',
        'Seus indicados diretos são os usuários que se cadastraram com o seu código. Sua equipe inclui os indicados diretos e os usuários que eles convidarem. Na página do usuário, você vê o número de indicados diretos, o tamanho da equipe, o desempenho pessoal, o desempenho dos diretos e o desempenho da equipe.',
        'O desempenho é calculado com base em compras elegíveis, como dispositivos de mineração, nós Super Miner e mineração por queima. Transferências entre suas próprias contas, depósitos e saques não contam. Os números são atualizados periodicamente e podem levar algum tempo para aparecer depois que um pedido é concluído.',
        'O indicador não pode ser alterado após o cadastro, então confirme se os novos usuários digitaram o código correto. Criar várias contas para convidar a si mesmo ou divulgar o NADI de forma enganosa viola as regras do programa, e o desempenho afetado poderá ser removido.',
        'Ao divulgar o NADI, seja honesto. Não prometa lucro ou retorno fixo aos seus amigos e lembre-os de nunca compartilhar a frase-semente com ninguém, nem mesmo com você.',
      ),
      id: p(
        'Setiap akun NADI memiliki kode undangan dan tautan undangan sendiri, yang dapat Anda temukan di halaman Pengguna. Pengguna baru mendaftar dengan kode undangan, dan akun yang mengundang mereka menjadi perujuk mereka.',
        'Anggota langsung Anda adalah pengguna yang mendaftar dengan kode Anda. Tim Anda mencakup anggota langsung dan pengguna yang kemudian mereka undang. Di halaman Pengguna, Anda dapat melihat jumlah anggota langsung, jumlah anggota tim, kinerja pribadi, kinerja langsung, dan kinerja tim.',
        'Kinerja dihitung dari pembelian yang memenuhi syarat, seperti perangkat penambangan, node Super Miner, dan penambangan bakar. Transfer antar akun Anda sendiri, isi ulang, dan penarikan tidak dihitung. Angka diperbarui secara berkala dan mungkin memerlukan waktu untuk muncul setelah pesanan selesai.',
        'Perujuk tidak dapat diubah setelah pendaftaran, jadi pastikan pengguna baru memasukkan kode yang benar. Membuat banyak akun untuk mengundang diri sendiri, atau mempromosikan NADI secara menyesatkan, melanggar aturan program, dan kinerja terkait dapat dihapus.',
        'Saat membagikan NADI, jelaskan dengan jujur. Jangan menjanjikan keuntungan atau imbal hasil tetap kepada teman, dan ingatkan mereka untuk tidak pernah membagikan frasa pemulihan kepada siapa pun, termasuk Anda.',
      ),
      vn: p(
        'Mỗi tài khoản NADI đều có mã mời và đường link mời riêng, bạn có thể xem tại trang Người dùng. Người dùng mới đăng ký bằng mã mời, và tài khoản đã mời họ sẽ trở thành người giới thiệu của họ.',
        'Thành viên trực tiếp của bạn là những người đăng ký bằng mã của bạn. Đội nhóm của bạn gồm các thành viên trực tiếp và những người mà họ tiếp tục mời. Tại trang Người dùng, bạn có thể xem số thành viên trực tiếp, số thành viên đội nhóm, doanh số cá nhân, doanh số trực tiếp và doanh số đội nhóm.',
        'Doanh số được tính từ các giao dịch mua đủ điều kiện như thiết bị đào, node Super Miner và đào bằng hình thức đốt. Chuyển tiền giữa các tài khoản của chính bạn, nạp tiền và rút tiền không được tính. Số liệu được cập nhật định kỳ và có thể mất một khoảng thời gian mới hiển thị sau khi đơn hàng hoàn tất.',
        'Người giới thiệu không thể thay đổi sau khi đăng ký, vì vậy hãy đảm bảo người dùng mới nhập đúng mã. Tạo nhiều tài khoản để tự mời chính mình hoặc quảng bá NADI theo cách gây hiểu lầm là vi phạm quy tắc chương trình, và doanh số liên quan có thể bị loại bỏ.',
        'Khi giới thiệu NADI, hãy mô tả trung thực. Đừng hứa hẹn lợi nhuận hay mức lợi tức cố định với bạn bè, và nhắc họ không bao giờ chia sẻ cụm từ khôi phục với bất kỳ ai, kể cả bạn.',
      ),
      ms: p(
        'Setiap akaun NADI mempunyai kod jemputan dan pautan jemputan tersendiri, yang boleh anda temui di halaman Pengguna. Pengguna baharu mendaftar dengan kod jemputan, dan akaun yang menjemput mereka menjadi perujuk mereka.',
        'Ahli langsung anda ialah pengguna yang mendaftar menggunakan kod anda. Pasukan anda merangkumi ahli langsung dan pengguna yang mereka jemput seterusnya. Di halaman Pengguna, anda boleh melihat bilangan ahli langsung, bilangan ahli pasukan, prestasi peribadi, prestasi langsung dan prestasi pasukan.',
        'Prestasi dikira berdasarkan pembelian yang layak seperti peranti perlombongan, nod Super Miner dan perlombongan musnah. Pemindahan antara akaun anda sendiri, tambah nilai dan pengeluaran tidak dikira. Angka dikemas kini secara berkala dan mungkin mengambil sedikit masa untuk dipaparkan selepas pesanan selesai.',
        'Perujuk tidak boleh ditukar selepas pendaftaran, jadi pastikan pengguna baharu memasukkan kod yang betul. Mencipta berbilang akaun untuk menjemput diri sendiri, atau mempromosikan NADI secara mengelirukan, melanggar peraturan program, dan prestasi yang berkaitan mungkin dibatalkan.',
        'Apabila berkongsi tentang NADI, terangkan dengan jujur. Jangan menjanjikan sebarang keuntungan atau pulangan tetap kepada rakan, dan ingatkan mereka supaya tidak sekali-kali berkongsi frasa pemulihan dengan sesiapa pun, termasuk anda.',
      ),
    },
  },

  // 6. NADI/USDT spot trading opening
  {
    key: 'spot-trading',
    pinned: false,
    daysAgo: 20,
    title: {
      tw: 'NADI/USDT 現貨交易正式開放',
      en: 'NADI/USDT spot trading is now open',
      zh: 'NADI/USDT 现货交易正式开放',
      jp: 'NADI/USDT現物取引を開始しました',
      ko: 'NADI/USDT 현물 거래 오픈',
      th: 'เปิดการซื้อขาย Spot คู่ NADI/USDT แล้ว',
      pt: 'Negociação à vista de NADI/USDT liberada',
      id: 'Perdagangan spot NADI/USDT kini dibuka',
      vn: 'Chính thức mở giao dịch giao ngay NADI/USDT',
      ms: 'Dagangan spot NADI/USDT kini dibuka',
    },
    content: {
      tw: p(
        'NADI/USDT 現貨交易現已在「交易」頁面開放。',
        '您可以依自訂價格下限價單，或下以當前最佳價格立即成交的市價單，買入與賣出皆可。未成交的委託會列在「當前委託」中，成交前可隨時撤銷；已成交與已撤銷的委託會移至歷史委託，您可在其中查看成交數量、成交均價與手續費。',
        '交易使用您的交易帳戶。開始交易前，請先在「劃轉」頁面將 NADI 或 USDT 從資金帳戶劃轉至交易帳戶。每一筆帳戶間的劃轉都會顯示在資金記錄中。',
        'K 線圖與最新成交會即時更新。每筆成交的訂單均需支付交易手續費，目前費率會在您提交前顯示於下單表單中。',
        '加密貨幣價格可能大幅波動。在流動性不足時，市價單的成交價格可能與最新成交價不同，因此較大金額的交易建議使用限價單。請僅以可承受損失的資金進行交易。',
      ),
      en: p(
        'Spot trading of NADI against USDT is now available on the Trade page.',
        'You can place limit orders at a price you choose, or market orders that are filled immediately at the best available price. Both buy and sell orders are supported. Open orders are listed under current orders and can be cancelled at any time before they are filled. Filled and cancelled orders move to your order history, where you can check the filled amount, average price and fee.',
        'Trading uses your trade account. Before you trade, transfer NADI or USDT from your fund account to your trade account on the Transfer page. Every transfer between your accounts is shown in your money records.',
        'The candlestick chart and the latest deals update in real time. A trading fee applies to each filled order, and the current rate is shown on the order form before you submit.',
        'Crypto prices can move sharply. When liquidity is thin, a market order may be filled at a price different from the last deal, so consider using limit orders for larger amounts. Only trade with funds you can afford to lose.',
      ),
      zh: p(
        'NADI/USDT 现货交易现已在“交易”页面开放。',
        '您可以按自定价格下限价单，或下以当前最优价格立即成交的市价单，买入和卖出均支持。未成交的委托会显示在“当前委托”中，成交前可随时撤单；已成交和已撤销的委托会移至历史委托，您可在其中查看成交数量、成交均价和手续费。',
        '交易使用您的交易账户。开始交易前，请先在“划转”页面将 NADI 或 USDT 从资金账户划转到交易账户。每一笔账户间划转都会显示在资金记录中。',
        'K 线图和最新成交会实时更新。每笔成交的订单均需支付交易手续费，当前费率会在您提交前显示在下单表单中。',
        '加密货币价格可能大幅波动。在流动性不足时，市价单的成交价格可能与最新成交价不同，因此较大金额的交易建议使用限价单。请仅使用可承受损失的资金进行交易。',
      ),
      jp: p(
        '「取引」ページで、NADI/USDTの現物取引がご利用いただけるようになりました。',
        '任意の価格を指定する指値注文と、その時点の最良価格で即時に約定する成行注文をご利用いただけます。買い注文・売り注文のどちらにも対応しています。未約定の注文は「現在の注文」に表示され、約定前であればいつでもキャンセルできます。約定済みおよびキャンセル済みの注文は注文履歴に移動し、約定数量、平均約定価格、手数料を確認できます。',
        '取引には取引アカウントを使用します。取引を始める前に、「振替」ページで資金アカウントから取引アカウントへNADIまたはUSDTを振り替えてください。アカウント間の振替はすべて資金履歴に記録されます。',
        'ローソク足チャートと最新の約定はリアルタイムで更新されます。約定した注文ごとに取引手数料がかかり、現在の手数料率は注文を送信する前に注文フォームに表示されます。',
        '暗号資産の価格は大きく変動することがあります。流動性が低いときは、成行注文が直近の約定価格と異なる価格で約定する場合があるため、大きな金額の取引には指値注文のご利用をご検討ください。失っても問題のない資金の範囲内でお取引ください。',
      ),
      ko: p(
        "이제 '거래' 페이지에서 NADI/USDT 현물 거래를 이용할 수 있습니다.",
        "원하는 가격을 지정하는 지정가 주문과, 현재 최우선 가격으로 즉시 체결되는 시장가 주문을 이용할 수 있으며 매수와 매도 모두 지원됩니다. 미체결 주문은 '현재 주문'에 표시되며 체결 전이라면 언제든 취소할 수 있습니다. 체결되거나 취소된 주문은 주문 내역으로 이동하며, 여기서 체결 수량, 평균 체결가, 수수료를 확인할 수 있습니다.",
        "거래에는 거래 계정이 사용됩니다. 거래하기 전에 '이체' 페이지에서 NADI 또는 USDT를 자금 계정에서 거래 계정으로 이체하세요. 계정 간 모든 이체는 자금 기록에 표시됩니다.",
        '캔들 차트와 최근 체결 내역은 실시간으로 업데이트됩니다. 체결된 주문마다 거래 수수료가 부과되며, 현재 수수료율은 주문을 제출하기 전에 주문 양식에 표시됩니다.',
        '암호화폐 가격은 급격하게 변동할 수 있습니다. 유동성이 부족할 때는 시장가 주문이 최근 체결가와 다른 가격에 체결될 수 있으므로, 큰 금액은 지정가 주문을 이용하는 것을 고려해 보세요. 잃어도 감당할 수 있는 자금으로만 거래하세요.',
      ),
      th: p(
        'ขณะนี้คุณสามารถซื้อขาย Spot คู่ NADI/USDT ได้แล้วที่หน้าเทรด',
        'คุณสามารถส่งคำสั่งแบบลิมิต (Limit) ตามราคาที่กำหนดเอง หรือคำสั่งแบบมาร์เก็ต (Market) ที่จับคู่ทันทีตามราคาที่ดีที่สุดในขณะนั้น รองรับทั้งคำสั่งซื้อและคำสั่งขาย คำสั่งที่ยังไม่จับคู่จะแสดงในรายการคำสั่งปัจจุบันและยกเลิกได้ทุกเมื่อก่อนที่จะจับคู่ ส่วนคำสั่งที่จับคู่แล้วหรือยกเลิกแล้วจะย้ายไปอยู่ในประวัติคำสั่ง ซึ่งคุณสามารถตรวจสอบจำนวนที่จับคู่ ราคาเฉลี่ย และค่าธรรมเนียมได้',
        'การเทรดใช้บัญชีเทรดของคุณ ก่อนเริ่มเทรด โปรดโอน NADI หรือ USDT จากบัญชีเงินทุนไปยังบัญชีเทรดที่หน้าโอนระหว่างบัญชี การโอนระหว่างบัญชีทุกครั้งจะแสดงในประวัติการเงินของคุณ',
        'กราฟแท่งเทียนและรายการซื้อขายล่าสุดอัปเดตแบบเรียลไทม์ มีค่าธรรมเนียมการซื้อขายสำหรับทุกคำสั่งที่จับคู่แล้ว โดยอัตราปัจจุบันจะแสดงในแบบฟอร์มคำสั่งก่อนที่คุณจะยืนยัน',
        'ราคาคริปโตอาจผันผวนอย่างรุนแรง เมื่อสภาพคล่องต่ำ คำสั่งแบบมาร์เก็ตอาจจับคู่ที่ราคาต่างจากราคาซื้อขายล่าสุด จึงควรพิจารณาใช้คำสั่งแบบลิมิตสำหรับจำนวนเงินที่มาก โปรดเทรดด้วยเงินที่คุณยอมรับการสูญเสียได้เท่านั้น',
      ),
      pt: p(
        'A negociação à vista de NADI contra USDT já está disponível na página Negociar.',
        'Você pode enviar ordens limitadas, com o preço que escolher, ou ordens a mercado, executadas imediatamente pelo melhor preço disponível. Ordens de compra e de venda são aceitas. As ordens em aberto aparecem em ordens atuais e podem ser canceladas a qualquer momento antes da execução. Ordens executadas e canceladas vão para o histórico, onde você confere a quantidade executada, o preço médio e a taxa.',
        'A negociação usa a sua conta de negociação. Antes de negociar, transfira NADI ou USDT da sua conta de fundos para a conta de negociação na página Transferir. Todas as transferências entre as suas contas aparecem no seu extrato.',
        'O gráfico de candles e os últimos negócios são atualizados em tempo real. Cada ordem executada está sujeita a uma taxa de negociação, e a taxa vigente aparece no formulário da ordem antes do envio.',
        'Os preços de criptoativos podem oscilar bastante. Com pouca liquidez, uma ordem a mercado pode ser executada a um preço diferente do último negócio, por isso considere usar ordens limitadas para valores maiores. Negocie apenas com recursos que você pode perder.',
      ),
      id: p(
        'Perdagangan spot NADI terhadap USDT kini tersedia di halaman Perdagangan.',
        'Anda dapat memasang order limit dengan harga pilihan Anda, atau order pasar yang langsung tereksekusi pada harga terbaik yang tersedia. Order beli dan jual sama-sama didukung. Order yang masih terbuka ditampilkan di daftar order saat ini dan dapat dibatalkan kapan saja sebelum tereksekusi. Order yang telah tereksekusi atau dibatalkan berpindah ke riwayat order, tempat Anda dapat memeriksa jumlah yang tereksekusi, harga rata-rata, dan biaya.',
        'Perdagangan menggunakan akun perdagangan Anda. Sebelum berdagang, transfer NADI atau USDT dari akun dana ke akun perdagangan di halaman Transfer. Setiap transfer antar akun Anda tercatat di riwayat keuangan.',
        'Grafik candlestick dan transaksi terbaru diperbarui secara real-time. Biaya perdagangan dikenakan pada setiap order yang tereksekusi, dan tarif yang berlaku ditampilkan di formulir order sebelum Anda mengirimkannya.',
        'Harga kripto dapat bergerak tajam. Saat likuiditas rendah, order pasar dapat tereksekusi pada harga yang berbeda dari transaksi terakhir, jadi pertimbangkan untuk menggunakan order limit untuk jumlah yang lebih besar. Berdaganglah hanya dengan dana yang siap Anda tanggung kerugiannya.',
      ),
      vn: p(
        'Giao dịch giao ngay NADI/USDT nay đã có trên trang Giao dịch.',
        'Bạn có thể đặt lệnh giới hạn theo mức giá tự chọn, hoặc lệnh thị trường được khớp ngay theo giá tốt nhất hiện có. Hỗ trợ cả lệnh mua và lệnh bán. Các lệnh đang mở được liệt kê trong mục lệnh hiện tại và có thể hủy bất cứ lúc nào trước khi khớp. Lệnh đã khớp và lệnh đã hủy sẽ chuyển sang lịch sử lệnh, nơi bạn có thể xem khối lượng đã khớp, giá trung bình và phí.',
        'Giao dịch sử dụng tài khoản giao dịch của bạn. Trước khi giao dịch, hãy chuyển NADI hoặc USDT từ tài khoản vốn sang tài khoản giao dịch tại trang Chuyển khoản. Mọi lần chuyển giữa các tài khoản đều được ghi lại trong lịch sử tài chính.',
        'Biểu đồ nến và các giao dịch mới nhất được cập nhật theo thời gian thực. Mỗi lệnh được khớp đều chịu phí giao dịch, và mức phí hiện hành được hiển thị trên biểu mẫu đặt lệnh trước khi bạn gửi.',
        'Giá tiền mã hóa có thể biến động mạnh. Khi thanh khoản thấp, lệnh thị trường có thể khớp ở mức giá khác với giao dịch gần nhất, vì vậy hãy cân nhắc dùng lệnh giới hạn cho số tiền lớn. Chỉ giao dịch bằng số tiền bạn có thể chấp nhận mất.',
      ),
      ms: p(
        'Dagangan spot NADI berbanding USDT kini tersedia di halaman Dagangan.',
        'Anda boleh membuat pesanan had pada harga pilihan anda, atau pesanan pasaran yang dilaksanakan serta-merta pada harga terbaik yang tersedia. Pesanan beli dan jual kedua-duanya disokong. Pesanan terbuka disenaraikan di bawah pesanan semasa dan boleh dibatalkan pada bila-bila masa sebelum dilaksanakan. Pesanan yang telah dilaksanakan dan dibatalkan akan dipindahkan ke sejarah pesanan, di mana anda boleh menyemak jumlah yang dilaksanakan, harga purata dan yuran.',
        'Dagangan menggunakan akaun dagangan anda. Sebelum berdagang, pindahkan NADI atau USDT dari akaun dana ke akaun dagangan di halaman Pindahan. Setiap pindahan antara akaun anda dipaparkan dalam rekod kewangan.',
        'Carta lilin dan urus niaga terkini dikemas kini secara masa nyata. Yuran dagangan dikenakan bagi setiap pesanan yang dilaksanakan, dan kadar semasa dipaparkan pada borang pesanan sebelum anda menghantarnya.',
        'Harga kripto boleh berubah dengan mendadak. Apabila kecairan rendah, pesanan pasaran mungkin dilaksanakan pada harga yang berbeza daripada urus niaga terakhir, jadi pertimbangkan untuk menggunakan pesanan had bagi jumlah yang lebih besar. Berdagang hanya dengan dana yang anda mampu untuk kehilangan.',
      ),
    },
  },
]
