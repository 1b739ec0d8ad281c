/**
 * Brands of the demo platform. Real brands carry the spellings shoppers and suppliers
 * actually type (Korean, English, short forms, common misspellings) so the brand matcher of
 * the AI auto-fill has something real to match; invented brands fill the catalogue to ~300.
 * `roots` are the category roots (indexes of CATEGORY_TREE) the brand sells in.
 */
export interface BrandSeed {
  nm: string;
  eng: string;
  aliases: readonly string[];
  roots: readonly number[];
  /** Made abroad and brought in by an importer. */
  imported: boolean;
  home: string;
}

const FA = 0, AC = 1, BE = 2, FO = 3, AP = 4, DI = 5, FU = 6, LI = 7, SP = 8, KI = 9;

const b = (nm: string, eng: string, roots: number[], home: string, aliases: string[] = []): BrandSeed => ({
  nm,
  eng,
  aliases,
  roots,
  imported: home !== '대한민국',
  home,
});

export const REAL_BRANDS: readonly BrandSeed[] = [
  b('나이키', 'NIKE', [FA, AC, SP], '베트남', ['Nike', '나이끼', '나이크', '나이키코리아']),
  b('아디다스', 'ADIDAS', [FA, AC, SP], '베트남', ['adidas', '아디다스오리지널스', '아디다쓰', '아디다스코리아']),
  b('뉴발란스', 'NEW BALANCE', [FA, AC, SP], '미국', ['뉴발', 'NB', 'New Balance', '뉴밸런스']),
  b('푸마', 'PUMA', [FA, AC, SP], '베트남', ['Puma', '퓨마']),
  b('리복', 'REEBOK', [FA, AC, SP], '베트남', ['Reebok', '리북']),
  b('언더아머', 'UNDER ARMOUR', [FA, SP], '베트남', ['UA', '언더아모', 'Under Armor']),
  b('노스페이스', 'THE NORTH FACE', [FA, AC, SP], '베트남', ['노페', 'TNF', 'North Face', '더노스페이스']),
  b('컬럼비아', 'COLUMBIA', [FA, SP], '중국', ['콜롬비아', 'Columbia Sportswear']),
  b('유니클로', 'UNIQLO', [FA], '중국', ['Uniqlo', '유니끌로']),
  b('자라', 'ZARA', [FA, AC], '스페인', ['Zara']),
  b('무신사스탠다드', 'MUSINSA STANDARD', [FA], '대한민국', ['무탠다드', '무신사 스탠다드']),
  b('폴로랄프로렌', 'POLO RALPH LAUREN', [FA, AC], '미국', ['폴로', '랄프로렌', 'Polo']),
  b('타미힐피거', 'TOMMY HILFIGER', [FA, AC], '미국', ['타미', '토미힐피거']),
  b('라코스테', 'LACOSTE', [FA, AC], '프랑스', ['라꼬스테', 'Lacoste']),
  b('빈폴', 'BEANPOLE', [FA, AC], '대한민국', ['빈폴맨', 'Bean Pole']),
  b('헤지스', 'HAZZYS', [FA, AC], '대한민국', ['해지스', 'Hazzys']),
  b('휠라', 'FILA', [FA, AC, SP], '대한민국', ['필라', 'Fila']),
  b('컨버스', 'CONVERSE', [AC], '베트남', ['컨버즈', 'Converse']),
  b('반스', 'VANS', [AC], '베트남', ['Vans', '밴스']),
  b('닥터마틴', 'DR. MARTENS', [AC], '영국', ['닥마', 'Dr.Martens', '닥터 마틴']),
  b('크록스', 'CROCS', [AC, KI], '중국', ['Crocs', '크록스코리아']),
  b('엠엘비', 'MLB', [FA, AC], '대한민국', ['MLB코리아']),
  b('쌤소나이트', 'SAMSONITE', [AC], '벨기에', ['샘소나이트', 'Samsonite']),
  b('루이까또즈', 'LOUIS QUATORZE', [AC], '프랑스', ['루이카토즈', 'Louis Quatorze']),
  b('엠씨엠', 'MCM', [AC], '독일', ['MCM 코리아']),
  b('코치', 'COACH', [AC], '미국', ['Coach', '꼬치']),
  b('카시오', 'CASIO', [AC, DI], '일본', ['Casio', '지샥', 'G-SHOCK']),
  b('설화수', 'SULWHASOO', [BE], '대한민국', ['Sulwhasoo', '설화수 공식']),
  b('이니스프리', 'INNISFREE', [BE], '대한민국', ['이니스프리', 'Innisfree', '이니스프리 코리아']),
  b('라네즈', 'LANEIGE', [BE], '대한민국', ['Laneige', '라네즈코리아']),
  b('헤라', 'HERA', [BE], '대한민국', ['Hera']),
  b('닥터자르트', 'DR.JART+', [BE], '대한민국', ['닥자', 'Dr.Jart', '닥터 자르트']),
  b('에스트라', 'AESTURA', [BE], '대한민국', ['Aestura', '에스트라 아토베리어']),
  b('아이오페', 'IOPE', [BE], '대한민국', ['Iope', '아이오패']),
  b('키엘', 'KIEHL\'S', [BE], '미국', ['Kiehls', '키엘스']),
  b('에스티로더', 'ESTEE LAUDER', [BE], '미국', ['에스티 로더', 'Estee Lauder', '에스떼로더']),
  b('랑콤', 'LANCOME', [BE], '프랑스', ['Lancome', '랑꼼']),
  b('클리오', 'CLIO', [BE], '대한민국', ['Clio']),
  b('롬앤', 'ROM&ND', [BE], '대한민국', ['romand', '롬엔']),
  b('려', 'RYO', [BE], '대한민국', ['Ryo', '려 샴푸']),
  b('니베아', 'NIVEA', [BE], '독일', ['Nivea', '니배아']),
  b('농심', 'NONGSHIM', [FO], '대한민국', ['Nongshim', '농심라면']),
  b('오뚜기', 'OTTOGI', [FO], '대한민국', ['오뚜끼', 'Ottogi', '오뚝이']),
  b('CJ제일제당', 'CJ CHEILJEDANG', [FO], '대한민국', ['CJ', '씨제이', '씨제이제일제당']),
  b('비비고', 'BIBIGO', [FO], '대한민국', ['Bibigo', '비비꼬']),
  b('풀무원', 'PULMUONE', [FO], '대한민국', ['Pulmuone', '풀무원식품']),
  b('동원', 'DONGWON', [FO], '대한민국', ['동원F&B', 'Dongwon']),
  b('정관장', 'CHEONG KWAN JANG', [FO], '대한민국', ['한국인삼공사', 'KGC', '정관장 홍삼']),
  b('종근당건강', 'CKD HEALTHCARE', [FO], '대한민국', ['종근당', '락토핏']),
  b('스타벅스', 'STARBUCKS', [FO], '미국', ['스벅', 'Starbucks']),
  b('맥심', 'MAXIM', [FO], '대한민국', ['Maxim', '동서맥심']),
  b('제주삼다수', 'JEJU SAMDASOO', [FO], '대한민국', ['삼다수', 'Samdasoo']),
  b('삼성전자', 'SAMSUNG', [AP, DI], '대한민국', ['삼성', 'SAMSUNG ELECTRONICS', '삼성 전자', '쌤송', 'Samsung']),
  b('LG전자', 'LG ELECTRONICS', [AP, DI], '대한민국', ['LG', '엘지', '엘지전자', 'LG 전자']),
  b('다이슨', 'DYSON', [AP], '말레이시아', ['Dyson', '다이손']),
  b('필립스', 'PHILIPS', [AP], '네덜란드', ['Philips', '필립스코리아', '필립스 전자']),
  b('쿠쿠', 'CUCKOO', [AP], '대한민국', ['쿠쿠전자', 'Cuckoo', '쿠쿠홈시스']),
  b('쿠첸', 'CUCHEN', [AP], '대한민국', ['Cuchen', '쿠첸전자']),
  b('위닉스', 'WINIX', [AP], '대한민국', ['Winix', '위닉스뽀송']),
  b('코웨이', 'COWAY', [AP], '대한민국', ['Coway', '웅진코웨이']),
  b('SK매직', 'SK MAGIC', [AP], '대한민국', ['에스케이매직', 'SKmagic']),
  b('드롱기', 'DELONGHI', [AP], '이탈리아', ['델롱기', 'De\'Longhi', '드롱기코리아']),
  b('브레빌', 'BREVILLE', [AP], '호주', ['Breville', '브래빌']),
  b('테팔', 'TEFAL', [AP, LI], '프랑스', ['Tefal', '테팔코리아']),
  b('신일전자', 'SHINIL', [AP], '대한민국', ['신일', 'Shinil']),
  b('애플', 'APPLE', [DI], '중국', ['Apple', '애플코리아']),
  b('레노버', 'LENOVO', [DI], '중국', ['Lenovo', '레노보']),
  b('에이수스', 'ASUS', [DI], '대만', ['아수스', 'Asus', '에이서스']),
  b('에이치피', 'HP', [DI], '중국', ['HP코리아', '휴렛팩커드']),
  b('델', 'DELL', [DI], '중국', ['Dell', '델테크놀로지스']),
  b('로지텍', 'LOGITECH', [DI], '중국', ['Logitech', '로지텍코리아', '로지택']),
  b('소니', 'SONY', [DI, AP], '일본', ['Sony', '소니코리아']),
  b('캐논', 'CANON', [DI], '일본', ['Canon', '캐논코리아']),
  b('니콘', 'NIKON', [DI], '태국', ['Nikon', '니꼰']),
  b('후지필름', 'FUJIFILM', [DI], '일본', ['후지', 'Fujifilm']),
  b('고프로', 'GOPRO', [DI], '중국', ['GoPro', '고 프로']),
  b('닌텐도', 'NINTENDO', [DI], '일본', ['Nintendo', '닌텐도코리아']),
  b('샤오미', 'XIAOMI', [DI, AP], '중국', ['Xiaomi', '미지아', '샤오미코리아']),
  b('앤커', 'ANKER', [DI], '중국', ['Anker', '앤커코리아', '엔커']),
  b('보스', 'BOSE', [DI, AP], '미국', ['Bose', '보스코리아']),
  b('제이비엘', 'JBL', [DI, AP], '중국', ['JBL코리아']),
  b('한샘', 'HANSSEM', [FU], '대한민국', ['Hanssem', '한샘몰']),
  b('이케아', 'IKEA', [FU, LI], '스웨덴', ['Ikea', '이캐아']),
  b('시몬스', 'SIMMONS', [FU], '대한민국', ['Simmons', '시몬스침대']),
  b('에이스침대', 'ACE BED', [FU], '대한민국', ['에이스', 'Ace']),
  b('일룸', 'ILOOM', [FU], '대한민국', ['Iloom', '일룸가구']),
  b('데스커', 'DESKER', [FU], '대한민국', ['Desker']),
  b('시디즈', 'SIDIZ', [FU], '대한민국', ['Sidiz', '시디즈의자']),
  b('락앤락', 'LOCK&LOCK', [LI], '대한민국', ['락엔락', 'LocknLock', '락앤락코리아']),
  b('해피콜', 'HAPPYCALL', [LI], '대한민국', ['Happycall', '해피꼴']),
  b('코렐', 'CORELLE', [LI], '미국', ['Corelle', '코렐브랜즈']),
  b('휘슬러', 'FISSLER', [LI], '독일', ['Fissler', '휘슬러코리아']),
  b('유한킴벌리', 'YUHAN-KIMBERLY', [LI, KI], '대한민국', ['유한킴벌리', '크리넥스', 'Kleenex']),
  b('깨끗한나라', 'KLEANNARA', [LI], '대한민국', ['Kleannara', '깨끗한 나라']),
  b('퍼실', 'PERSIL', [LI], '독일', ['Persil', '퍼실세제']),
  b('모나미', 'MONAMI', [LI], '대한민국', ['Monami', '모나미153']),
  b('로얄캐닌', 'ROYAL CANIN', [LI], '프랑스', ['로얄캐닌코리아', 'Royal Canin', '로얄카닌']),
  b('하기스', 'HUGGIES', [KI], '대한민국', ['Huggies', '하기스 네이처메이드']),
  b('팸퍼스', 'PAMPERS', [KI], '일본', ['Pampers', '펨퍼스']),
  b('레고', 'LEGO', [KI], '덴마크', ['Lego', '레고코리아']),
  b('매일유업', 'MAEIL', [KI, FO], '대한민국', ['매일', '앱솔루트']),
  b('남양유업', 'NAMYANG', [KI, FO], '대한민국', ['남양', '임페리얼']),
  b('다이치', 'DAICHI', [KI], '대한민국', ['Daichi', '다이치카시트']),
  b('스토케', 'STOKKE', [KI], '노르웨이', ['Stokke', '스토께']),
  b('타이틀리스트', 'TITLEIST', [SP], '미국', ['Titleist', '타이틀니스트']),
  b('캘러웨이', 'CALLAWAY', [SP], '미국', ['Callaway', '캘러웨이골프', '켈러웨이']),
  b('테일러메이드', 'TAYLORMADE', [SP], '미국', ['TaylorMade', '테일러메이드골프']),
  b('코베아', 'KOVEA', [SP], '대한민국', ['Kovea']),
  b('콜맨', 'COLEMAN', [SP], '미국', ['Coleman', '콜먼']),
  b('스노우피크', 'SNOW PEAK', [SP], '일본', ['Snow Peak', '스노피크']),
  b('삼천리자전거', 'SAMCHULY', [SP], '대한민국', ['삼천리', '첼로']),
  b('아레나', 'ARENA', [SP, FA], '대한민국', ['Arena', '아레나수영복']),
  b('요넥스', 'YONEX', [SP], '일본', ['Yonex', '요넥스코리아']),
];

/** Word pairs and suffixes invented brands are made from (Korean spelling, English spelling). */
export const INVENTED_WORDS: readonly (readonly [string, string])[] = [
  ['오로라', 'AURORA'], ['블룸', 'BLOOM'], ['루미에르', 'LUMIERE'], ['모아', 'MOA'], ['소울', 'SOUL'], ['노바', 'NOVA'],
  ['테라', 'TERRA'], ['아토', 'ATO'], ['베르데', 'VERDE'], ['코지', 'COZY'], ['하루', 'HARU'], ['온유', 'ONYU'],
  ['담다', 'DAMDA'], ['새봄', 'SAEBOM'], ['미르', 'MIR'], ['한결', 'HANGYEOL'], ['라온', 'RAON'], ['다온', 'DAON'],
  ['누리', 'NURI'], ['솔', 'SOL'], ['포레', 'FORET'], ['마레', 'MARE'], ['리프', 'LEAF'], ['스톤', 'STONE'],
  ['클라우드', 'CLOUD'], ['에코', 'ECO'], ['퓨어', 'PURE'], ['심플', 'SIMPLE'], ['어반', 'URBAN'], ['브릭', 'BRICK'],
  ['오브제', 'OBJET'], ['메종', 'MAISON'], ['플로우', 'FLOW'], ['루프', 'LOOP'], ['피크', 'PEAK'], ['웨이브', 'WAVE'],
  ['그린', 'GREEN'], ['베이직', 'BASIC'], ['모던', 'MODERN'], ['클래식', 'CLASSIC'], ['아뜰리에', 'ATELIER'], ['노르딕', 'NORDIC'],
];

export const INVENTED_SUFFIXES: readonly (readonly [ko: string, en: string, roots: readonly number[]])[] = [
  ['', '', [FA, AC, LI, FU]],
  ['랩', ' LAB', [BE, DI, FO]],
  ['홈', ' HOME', [FU, LI]],
  ['리빙', ' LIVING', [FU, LI]],
  ['스튜디오', ' STUDIO', [FA, AC, FU]],
  ['웍스', ' WORKS', [DI, AP, SP]],
  ['팩토리', ' FACTORY', [FO, LI, AC]],
  ['앤코', ' & CO', [FA, AC, BE]],
  ['키즈', ' KIDS', [KI]],
  ['뷰티', ' BEAUTY', [BE]],
  ['푸드', ' FOOD', [FO]],
  ['테크', ' TECH', [DI, AP]],
  ['스포츠', ' SPORTS', [SP, FA]],
  ['아웃도어', ' OUTDOOR', [SP, AC]],
  ['팜', ' FARM', [FO]],
  ['일렉트릭', ' ELECTRIC', [AP]],
];

/** Name parts of suppliers: `(주)` + prefix + suffix, or prefix + suffix + `(주)`. */
export const SUPPLIER_PREFIXES = [
  '한빛', '대한', '세종', '미래', '동방', '태평양', '제일', '우리', '새한', '대성', '삼정', '한양', '서울', '남도', '동서',
  '청운', '금강', '백두', '한라', '명성', '진성', '하나', '대림', '성원', '가온', '온누리', '푸른', '아름', '그린', '케이',
];
export const SUPPLIER_SUFFIXES = ['상사', '물산', '유통', '무역', '코리아', '인터내셔널', '트레이딩', '커머스', 'F&B', '리테일', '글로벌', '산업'];

export const KOREAN_SURNAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황', '안', '송', '류', '홍'];
export const KOREAN_GIVEN_NAMES = [
  '민준', '서연', '도윤', '서윤', '시우', '지우', '하준', '하은', '주원', '지민', '지호', '수아', '예준', '지아', '현우',
  '다은', '건우', '채원', '우진', '예린', '선우', '소율', '민서', '유진', '은우', '지훈', '수빈', '태윤', '가은', '준혁',
];
