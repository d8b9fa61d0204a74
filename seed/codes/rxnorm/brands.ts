// Brand names. BRAND_CONCEPTS are RxNorm BN concepts whose RXCUI was read from a source; BRAND_NAMES are the brand
// names (US labels, FDA Orange Book / DailyMed) of the same drugs whose BN RXCUI we could not verify: they are known by
// name only, as synonyms of their ingredients, never given an invented code. Ingredients are named as in ./ingredients.ts.

export interface BrandRow {
  rxcui: string;
  name: string;
  /** Ingredient names (./ingredients.ts). */
  ingredients: string[];
}

/**
 * Sources: [VSAC] Anticoagulant Medications 2.16.840.1.113762.1.4.1206.19 (eCQM Update 2025-05-08, canvas-medical/
 * canvas-plugins v2026/medication.py); [NLM] davidanderson3/rxnorm-ingredients web/data/U.json (RxNorm ingredient tree
 * export); [RRF] RXNCONSO brand atoms quoted in public RxNorm loader tests (Coumadin 202421, Zocor 196503, Lipitor 153165);
 * [NLM-C] the same export, web/data/C.json; [NLM P], [NLM R], ... the same export, web/data/<letter>.json: the BN of the
 * SBDs under the ingredient's row.
 */
export const BRAND_CONCEPTS: readonly BrandRow[] = [
  { rxcui: '1364436', name: 'Eliquis', ingredients: ['apixaban'] }, // VSAC
  { rxcui: '1114199', name: 'Xarelto', ingredients: ['rivaroxaban'] }, // VSAC
  { rxcui: '1599544', name: 'Savaysa', ingredients: ['edoxaban'] }, // VSAC
  { rxcui: '1037046', name: 'Pradaxa', ingredients: ['dabigatran etexilate'] }, // VSAC
  { rxcui: '405155', name: 'Jantoven', ingredients: ['warfarin'] }, // VSAC
  { rxcui: '202421', name: 'Coumadin', ingredients: ['warfarin'] }, // RRF
  { rxcui: '225036', name: 'Lovenox', ingredients: ['enoxaparin'] }, // VSAC
  { rxcui: '281554', name: 'Fragmin', ingredients: ['dalteparin'] }, // VSAC
  { rxcui: '322155', name: 'Arixtra', ingredients: ['fondaparinux'] }, // VSAC
  { rxcui: '174742', name: 'Plavix', ingredients: ['clopidogrel'] }, // VSAC
  { rxcui: '855813', name: 'Effient', ingredients: ['prasugrel'] }, // VSAC
  { rxcui: '153165', name: 'Lipitor', ingredients: ['atorvastatin'] }, // RRF
  { rxcui: '196503', name: 'Zocor', ingredients: ['simvastatin'] }, // RRF
  { rxcui: '2268222', name: 'Ubrelvy', ingredients: ['ubrogepant'] }, // NLM
  { rxcui: '1539881', name: 'Incruse', ingredients: ['umeclidinium'] }, // NLM
  { rxcui: '1487520', name: 'Anoro', ingredients: ['umeclidinium', 'vilanterol'] }, // NLM
  { rxcui: '1539887', name: 'Breo', ingredients: ['fluticasone', 'vilanterol'] }, // NLM
  { rxcui: '1945040', name: 'Trelegy', ingredients: ['fluticasone', 'umeclidinium', 'vilanterol'] }, // NLM
  { rxcui: '196499', name: 'Suprax', ingredients: ['cefixime'] }, // NLM-C
  { rxcui: '1716210', name: 'Veltassa', ingredients: ['patiromer'] }, // NLM P
  { rxcui: '2047634', name: 'Lokelma', ingredients: ['sodium zirconium cyclosilicate'] }, // NLM S
  { rxcui: '284757', name: 'Kionex', ingredients: ['sodium polystyrene sulfonate'] }, // NLM S
  { rxcui: '1799649', name: 'SPS', ingredients: ['sodium polystyrene sulfonate'] }, // NLM S
  { rxcui: '2282314', name: 'Nurtec', ingredients: ['rimegepant'] }, // NLM R
  { rxcui: '2637975', name: 'Zavzpret', ingredients: ['zavegepant'] }, // NLM Z
  { rxcui: '2102780', name: 'Yupelri', ingredients: ['revefenacin'] }, // NLM R
  { rxcui: '135092', name: 'Accolate', ingredients: ['zafirlukast'] }, // NLM Z
  { rxcui: '221047', name: 'Zyflo', ingredients: ['zileuton'] }, // NLM Z
  { rxcui: '1746894', name: 'Cinqair', ingredients: ['reslizumab'] }, // NLM R
  { rxcui: '2472316', name: 'Gemtesa', ingredients: ['vibegron'] }, // NLM V
  { rxcui: '2472784', name: 'Orgovyx', ingredients: ['relugolix'] }, // NLM R
  { rxcui: '2123186', name: 'Evenity', ingredients: ['romosozumab'] }, // NLM R
  { rxcui: '202368', name: 'Vancocin', ingredients: ['vancomycin'] }, // NLM V
  { rxcui: '2000128', name: 'Firvanq', ingredients: ['vancomycin'] }, // NLM V
  // CGRP antibodies
  { rxcui: '2045628', name: 'Aimovig', ingredients: ['erenumab'] }, // NLM E
  { rxcui: '2283050', name: 'Vyepti', ingredients: ['eptinezumab'] }, // NLM E
  { rxcui: '2056696', name: 'Ajovy', ingredients: ['fremanezumab'] }, // NLM F
  { rxcui: '2058873', name: 'Emgality', ingredients: ['galcanezumab'] }, // NLM G
  // Asthma/COPD: the LAMA/LABA and triple combinations are BNs of every ingredient they hold
  { rxcui: '1546064', name: 'Striverdi', ingredients: ['olodaterol'] }, // NLM O
  { rxcui: '1651267', name: 'Stiolto', ingredients: ['olodaterol', 'tiotropium'] }, // NLM O
  { rxcui: '152322', name: 'Robinul', ingredients: ['glycopyrronium'] }, // NLM G
  { rxcui: '999962', name: 'Cuvposa', ingredients: ['glycopyrronium'] }, // NLM G
  { rxcui: '1437970', name: 'Glycate', ingredients: ['glycopyrronium'] }, // NLM G
  { rxcui: '2589275', name: 'Dartisla', ingredients: ['glycopyrronium'] }, // NLM G
  { rxcui: '1992567', name: 'Lonhala', ingredients: ['glycopyrronium'] }, // NLM G
  { rxcui: '1790640', name: 'Bevespi', ingredients: ['formoterol', 'glycopyrronium'] }, // NLM G
  { rxcui: '2387325', name: 'Breztri', ingredients: ['budesonide', 'formoterol', 'glycopyrronium'] }, // NLM G
  { rxcui: '261702', name: 'Xopenex', ingredients: ['levalbuterol'] }, // NLM L
  { rxcui: '203388', name: 'Theo-24', ingredients: ['theophylline'] }, // NLM T
  { rxcui: '203394', name: 'Elixophyllin', ingredients: ['theophylline'] }, // NLM T
  { rxcui: '356767', name: 'Xolair', ingredients: ['omalizumab'] }, // NLM O
  { rxcui: '1720602', name: 'Nucala', ingredients: ['mepolizumab'] }, // NLM M
  { rxcui: '1989105', name: 'Fasenra', ingredients: ['benralizumab'] }, // NLM B
  { rxcui: '1876402', name: 'Dupixent', ingredients: ['dupilumab'] }, // NLM D
  { rxcui: '2587796', name: 'Tezspire', ingredients: ['tezepelumab'] }, // NLM T
  // Lipids, gout
  { rxcui: '2282409', name: 'Nexletol', ingredients: ['bempedoic acid'] }, // NLM B
  { rxcui: '2283231', name: 'Nexlizet', ingredients: ['bempedoic acid', 'ezetimibe'] }, // NLM B
  { rxcui: '1304980', name: 'Vascepa', ingredients: ['icosapent ethyl'] }, // NLM I
  { rxcui: '1944780', name: 'Duzallo', ingredients: ['allopurinol', 'lesinurad'] }, // NLM L
  { rxcui: '1011654', name: 'Krystexxa', ingredients: ['pegloticase'] }, // NLM P
  // Androgen deprivation, bone
  { rxcui: '2180331', name: 'Nubeqa', ingredients: ['darolutamide'] }, // NLM D
  { rxcui: '905054', name: 'Trelstar', ingredients: ['triptorelin'] }, // NLM T
  { rxcui: '1944385', name: 'Triptodur', ingredients: ['triptorelin'] }, // NLM T
  { rxcui: '220125', name: 'Supprelin', ingredients: ['histrelin'] }, // NLM H
  { rxcui: '151668', name: 'Eulexin', ingredients: ['flutamide'] }, // NLM F
  { rxcui: '218741', name: 'Nilandron', ingredients: ['nilutamide'] }, // NLM N
  { rxcui: '352657', name: 'Forteo', ingredients: ['teriparatide'] }, // NLM T
  { rxcui: '2716404', name: 'Bonsity', ingredients: ['teriparatide'] }, // NLM T
  // Antibacterials: the beta-lactam / beta-lactamase inhibitor combinations, the MRSA agent
  { rxcui: '74170', name: 'Zosyn', ingredients: ['piperacillin', 'tazobactam'] }, // NLM P
  { rxcui: '57773', name: 'Unasyn', ingredients: ['ampicillin', 'sulbactam'] }, // NLM S
  { rxcui: '261710', name: 'Zyvox', ingredients: ['linezolid'] }, // NLM L
];

/** Brand names (and the shorthand clinicians write for combinations: TMP-SMX, amox-clav) -> ingredient names, for
 * brands whose BN RXCUI is not held: known by name only. */
export const BRAND_NAMES: Readonly<Record<string, string[]>> = {
  // RAAS, alone and in single-pill combinations
  Zestril: ['lisinopril'], Prinivil: ['lisinopril'], Qbrelis: ['lisinopril'], Vasotec: ['enalapril'], Altace: ['ramipril'],
  Lotensin: ['benazepril'], Accupril: ['quinapril'], Mavik: ['trandolapril'], Cozaar: ['losartan'], Diovan: ['valsartan'],
  Avapro: ['irbesartan'], Atacand: ['candesartan'], Benicar: ['olmesartan'], Micardis: ['telmisartan'], Edarbi: ['azilsartan'],
  Entresto: ['sacubitril', 'valsartan'], Tekturna: ['aliskiren'],
  // Hepatitis C direct-acting antiviral combinations (ingredients uncoded: UNCODED_INGREDIENTS)
  Epclusa: ['sofosbuvir', 'velpatasvir'], Harvoni: ['ledipasvir', 'sofosbuvir'], Mavyret: ['glecaprevir', 'pibrentasvir'],
  Zestoretic: ['lisinopril', 'hydrochlorothiazide'], Prinzide: ['lisinopril', 'hydrochlorothiazide'], Hyzaar: ['losartan', 'hydrochlorothiazide'],
  'Diovan HCT': ['valsartan', 'hydrochlorothiazide'], 'Benicar HCT': ['olmesartan', 'hydrochlorothiazide'],
  'Micardis HCT': ['telmisartan', 'hydrochlorothiazide'], 'Atacand HCT': ['candesartan', 'hydrochlorothiazide'],
  Avalide: ['irbesartan', 'hydrochlorothiazide'], Vaseretic: ['enalapril', 'hydrochlorothiazide'], 'Lotensin HCT': ['benazepril', 'hydrochlorothiazide'],
  Edarbyclor: ['azilsartan', 'chlorthalidone'],
  Lotrel: ['amlodipine', 'benazepril'], Exforge: ['amlodipine', 'valsartan'], 'Exforge HCT': ['amlodipine', 'valsartan', 'hydrochlorothiazide'],
  Azor: ['amlodipine', 'olmesartan'], Tribenzor: ['amlodipine', 'olmesartan', 'hydrochlorothiazide'], Twynsta: ['amlodipine', 'telmisartan'],
  Caduet: ['amlodipine', 'atorvastatin'],
  // Calcium channel blockers, diuretics, beta blockers, other antihypertensives
  Norvasc: ['amlodipine'], Procardia: ['nifedipine'], Adalat: ['nifedipine'], Plendil: ['felodipine'], Cardizem: ['diltiazem'],
  Tiazac: ['diltiazem'], Calan: ['verapamil'], Verelan: ['verapamil'],
  Microzide: ['hydrochlorothiazide'], Thalitone: ['chlorthalidone'], Lozol: ['indapamide'], Zaroxolyn: ['metolazone'], Lasix: ['furosemide'],
  Bumex: ['bumetanide'], Demadex: ['torsemide'], Soaanz: ['torsemide'], Aldactone: ['spironolactone'], CaroSpir: ['spironolactone'],
  Inspra: ['eplerenone'], Kerendia: ['finerenone'], Dyrenium: ['triamterene'],
  Dyazide: ['triamterene', 'hydrochlorothiazide'], Maxzide: ['triamterene', 'hydrochlorothiazide'],
  Aldactazide: ['spironolactone', 'hydrochlorothiazide'], Moduretic: ['amiloride', 'hydrochlorothiazide'],
  'Toprol XL': ['metoprolol'], Lopressor: ['metoprolol'], Coreg: ['carvedilol'], Zebeta: ['bisoprolol'], Tenormin: ['atenolol'],
  Inderal: ['propranolol'], Bystolic: ['nebivolol'], Corgard: ['nadolol'], Tenoretic: ['atenolol', 'chlorthalidone'], Ziac: ['bisoprolol', 'hydrochlorothiazide'],
  Catapres: ['clonidine'], Cardura: ['doxazosin'], Minipress: ['prazosin'], Hytrin: ['terazosin'], BiDil: ['isosorbide dinitrate', 'hydralazine'],
  Lanoxin: ['digoxin'],
  'Klor-Con': ['potassium chloride'], 'K-Dur': ['potassium chloride'], 'K-Tab': ['potassium chloride'], 'Micro-K': ['potassium chloride'],
  // Lipids, antithrombotics
  Crestor: ['rosuvastatin'], Pravachol: ['pravastatin'], Mevacor: ['lovastatin'], Altoprev: ['lovastatin'], Lescol: ['fluvastatin'],
  Livalo: ['pitavastatin'], Zypitamag: ['pitavastatin'], Zetia: ['ezetimibe'], Vytorin: ['ezetimibe', 'simvastatin'], Roszet: ['ezetimibe', 'rosuvastatin'],
  Repatha: ['evolocumab'], Praluent: ['alirocumab'], Brilinta: ['ticagrelor'], Pletal: ['cilostazol'], Ecotrin: ['aspirin'],
  // Diabetes
  Glucophage: ['metformin'], Glumetza: ['metformin'], Fortamet: ['metformin'], Riomet: ['metformin'],
  Jardiance: ['empagliflozin'], Farxiga: ['dapagliflozin'], Forxiga: ['dapagliflozin'], Invokana: ['canagliflozin'], Steglatro: ['ertugliflozin'],
  Inpefa: ['sotagliflozin'], Ozempic: ['semaglutide'], Wegovy: ['semaglutide'], Rybelsus: ['semaglutide'], Victoza: ['liraglutide'],
  Saxenda: ['liraglutide'], Trulicity: ['dulaglutide'], Byetta: ['exenatide'], Bydureon: ['exenatide'], Mounjaro: ['tirzepatide'],
  Zepbound: ['tirzepatide'], Januvia: ['sitagliptin'], Tradjenta: ['linagliptin'], Onglyza: ['saxagliptin'], Nesina: ['alogliptin'],
  Glucotrol: ['glipizide'], Amaryl: ['glimepiride'], Glynase: ['glyburide'], Actos: ['pioglitazone'],
  Synjardy: ['empagliflozin', 'metformin'], Xigduo: ['dapagliflozin', 'metformin'], Invokamet: ['canagliflozin', 'metformin'],
  Segluromet: ['ertugliflozin', 'metformin'], Glyxambi: ['empagliflozin', 'linagliptin'], Qtern: ['dapagliflozin', 'saxagliptin'],
  Janumet: ['sitagliptin', 'metformin'], Jentadueto: ['linagliptin', 'metformin'], Kombiglyze: ['saxagliptin', 'metformin'],
  Lantus: ['insulin glargine'], Basaglar: ['insulin glargine'], Semglee: ['insulin glargine'], Toujeo: ['insulin glargine'],
  Humalog: ['insulin lispro'], Admelog: ['insulin lispro'], Lyumjev: ['insulin lispro'], Novolog: ['insulin aspart'], Fiasp: ['insulin aspart'],
  Levemir: ['insulin detemir'], Tresiba: ['insulin degludec'], Apidra: ['insulin glulisine'], Xultophy: ['insulin degludec', 'liraglutide'],
  // Thyroid, bone, gout
  Synthroid: ['levothyroxine'], Levoxyl: ['levothyroxine'], Unithroid: ['levothyroxine'], Euthyrox: ['levothyroxine'], Tirosint: ['levothyroxine'],
  Cytomel: ['liothyronine'], Tapazole: ['methimazole'],
  Fosamax: ['alendronate'], Binosto: ['alendronate'], Actonel: ['risedronate'], Atelvia: ['risedronate'], Boniva: ['ibandronate'],
  Reclast: ['zoledronic acid'], Zometa: ['zoledronic acid'], Prolia: ['denosumab'], Xgeva: ['denosumab'], Evista: ['raloxifene'],
  Zyloprim: ['allopurinol'], Uloric: ['febuxostat'], Colcrys: ['colchicine'], Mitigare: ['colchicine'], Gloperba: ['colchicine'],
  Rayos: ['prednisone'],
  // Potassium binders: Kayexalate has no current SBD in the NLM export (its BN code was not read)
  Kayexalate: ['sodium polystyrene sulfonate'],
  // Analgesics
  Advil: ['ibuprofen'], Motrin: ['ibuprofen'], Aleve: ['naproxen'], Naprosyn: ['naproxen'], Anaprox: ['naproxen'], Celebrex: ['celecoxib'],
  Voltaren: ['diclofenac'], Cataflam: ['diclofenac'], Zorvolex: ['diclofenac'], Mobic: ['meloxicam'], Toradol: ['ketorolac'], Sprix: ['ketorolac'],
  Indocin: ['indomethacin'], Tivorbex: ['indomethacin'], Relafen: ['nabumetone'], Lodine: ['etodolac'], Tylenol: ['acetaminophen'],
  Ultram: ['tramadol'],
  // Asthma/COPD. Seebri (glycopyrronium) has no current SBD in the NLM export, so no BN code was read.
  Ventolin: ['albuterol'], ProAir: ['albuterol'], Proventil: ['albuterol'], Flovent: ['fluticasone'], Arnuity: ['fluticasone'],
  Pulmicort: ['budesonide'], Qvar: ['beclomethasone'], Asmanex: ['mometasone'], Serevent: ['salmeterol'], Spiriva: ['tiotropium'],
  Atrovent: ['ipratropium'], Singulair: ['montelukast'], Symbicort: ['budesonide', 'formoterol'], Breyna: ['budesonide', 'formoterol'],
  Advair: ['fluticasone', 'salmeterol'], Wixela: ['fluticasone', 'salmeterol'], AirDuo: ['fluticasone', 'salmeterol'],
  Dulera: ['mometasone', 'formoterol'], Combivent: ['ipratropium', 'albuterol'], Seebri: ['glycopyrronium'],
  // Acid suppression
  Prilosec: ['omeprazole'], Protonix: ['pantoprazole'], Nexium: ['esomeprazole'], Prevacid: ['lansoprazole'], Aciphex: ['rabeprazole'],
  Dexilant: ['dexlansoprazole'], Pepcid: ['famotidine'], Tagamet: ['cimetidine'], Zantac: ['ranitidine'],
  // Bladder, prostate and anticholinergics
  Ditropan: ['oxybutynin'], Oxytrol: ['oxybutynin'], Gelnique: ['oxybutynin'], Detrol: ['tolterodine'], Vesicare: ['solifenacin'],
  Enablex: ['darifenacin'], Toviaz: ['fesoterodine'], Myrbetriq: ['mirabegron'], Flomax: ['tamsulosin'], Proscar: ['finasteride'],
  // Sanctura (trospium): no current SBD in the NLM export. Cobenfy, the only BN under trospium there, is trospium with
  // xanomeline (an antipsychotic), not a bladder brand: not listed.
  Sanctura: ['trospium'],
  Propecia: ['finasteride'], Benadryl: ['diphenhydramine'], Atarax: ['hydroxyzine'], Vistaril: ['hydroxyzine'],
  'Chlor-Trimeton': ['chlorpheniramine'], Flexeril: ['cyclobenzaprine'], Amrix: ['cyclobenzaprine'], Elavil: ['amitriptyline'],
  Pamelor: ['nortriptyline'],
  // Dementia, migraine
  Aricept: ['donepezil'], Namenda: ['memantine'], Exelon: ['rivastigmine'], Razadyne: ['galantamine'], Namzaric: ['donepezil', 'memantine'],
  Imitrex: ['sumatriptan'], Maxalt: ['rizatriptan'], Zomig: ['zolmitriptan'], Topamax: ['topiramate'], Trokendi: ['topiramate'],
  Qudexy: ['topiramate'], Depakote: ['valproic acid'],
  // Antidepressants
  Zoloft: ['sertraline'], Lexapro: ['escitalopram'], Celexa: ['citalopram'], Prozac: ['fluoxetine'], Paxil: ['paroxetine'],
  Luvox: ['fluvoxamine'], Effexor: ['venlafaxine'], Pristiq: ['desvenlafaxine'], Cymbalta: ['duloxetine'], Wellbutrin: ['bupropion'],
  Remeron: ['mirtazapine'], Desyrel: ['trazodone'], Trintellix: ['vortioxetine'], Lithobid: ['lithium carbonate'],
  // Antibacterials
  Amoxil: ['amoxicillin'], Augmentin: ['amoxicillin', 'clavulanate'], 'Amox-Clav': ['amoxicillin', 'clavulanate'],
  Vibramycin: ['doxycycline'], Doryx: ['doxycycline'], Keflex: ['cephalexin'], Omnicef: ['cefdinir'], Ceftin: ['cefuroxime'],
  Rocephin: ['ceftriaxone'], Levaquin: ['levofloxacin'], Avelox: ['moxifloxacin'], Cipro: ['ciprofloxacin'], Zithromax: ['azithromycin'],
  'Z-Pak': ['azithromycin'], Biaxin: ['clarithromycin'], Cleocin: ['clindamycin'], Bactrim: ['sulfamethoxazole', 'trimethoprim'],
  Septra: ['sulfamethoxazole', 'trimethoprim'], 'TMP-SMX': ['sulfamethoxazole', 'trimethoprim'], 'SMX-TMP': ['sulfamethoxazole', 'trimethoprim'],
  'co-trimoxazole': ['sulfamethoxazole', 'trimethoprim'], Macrobid: ['nitrofurantoin'], Macrodantin: ['nitrofurantoin'], Flagyl: ['metronidazole'],
  Cefzil: ['cefprozil'], Duricef: ['cefadroxil'], Ceclor: ['cefaclor'], Ancef: ['cefazolin'], Maxipime: ['cefepime'],
  'Pen VK': ['penicillin V'], Bicillin: ['penicillin G'], Pfizerpen: ['penicillin G'], Dycill: ['dicloxacillin'],
  'pip-tazo': ['piperacillin', 'tazobactam'],
  // Monurol (fosfomycin): the NLM export's fosfomycin row carries no BN
  Monurol: ['fosfomycin'],
  // Corticosteroids
  Medrol: ['methylprednisolone'], 'Solu-Medrol': ['methylprednisolone'], Decadron: ['dexamethasone'], Orapred: ['prednisolone'],
  Millipred: ['prednisolone'], Cortef: ['hydrocortisone'],
  // Androgens, androgen-deprivation therapy
  AndroGel: ['testosterone'], Testim: ['testosterone'], 'Depo-Testosterone': ['testosterone'], Xyosted: ['testosterone'],
  Aveed: ['testosterone'], Jatenzo: ['testosterone'], Methitest: ['methyltestosterone'], Lupron: ['leuprolide'], Eligard: ['leuprolide'],
  Zoladex: ['goserelin'], Firmagon: ['degarelix'], Casodex: ['bicalutamide'], Zytiga: ['abiraterone'], Yonsa: ['abiraterone'],
  Xtandi: ['enzalutamide'],
  // Tymlos (abaloparatide): its BN RXCUI is not quoted by the sources the ingredient code was read from. Yorvipath, which
  // the export lists under teriparatide, is palopegteriparatide (a hypoparathyroidism drug), not a teriparatide brand.
  Tymlos: ['abaloparatide'],
  // Edoxaban's EU brand and cefpodoxime's US brand, which tasks accept.
  Lixiana: ['edoxaban'], Vantin: ['cefpodoxime'],
  // Hydroxychloroquine's brand (the retinal-toxicity screening review accepts it by name).
  Plaquenil: ['hydroxychloroquine'],
};

/**
 * Ingredients the tasks' conditions are treated with whose RxNorm RXCUI we could not verify from a source: recognised
 * by name (generic and brand) for graders that work with names, but given no RXCUI (never an invented one). Why each is
 * here: [no A] the NLM ingredient export's web/data/A.json is not in the stored copy we read from, and no other public
 * source quoting the IN RXCUI was found (aclidinium's SCDs appear in an EMA mapping, but not its IN); [no current
 * product] the export lists only ingredients with current US products and has no row for them (neighbours read:
 * naltrexone -> naphazoline, fluoxetine / olanzapine -> fluphenazine, oxymetazoline -> oxymorphone).
 */
export const UNCODED_INGREDIENTS: Readonly<Record<string, string[]>> = {
  // [no A]
  atogepant: ['Qulipta'], aclidinium: ['Tudorza'], apalutamide: ['Erleada'],
  // [no current product]: anabolic steroids (the prostate-cancer task's ANDROGENS)
  nandrolone: [], fluoxymesterone: [], oxymetholone: [],
  // [not yet read] members of the graders' drug classes (graders/lib/drug-classes.ts: harm-rule classes such as the
  // Beers anticholinergics and NSAIDs, and alternatives a task accepts such as other triptans, inhaled steroids and
  // LABAs) whose RXCUI has not been read from a source yet. Recognised by name and served from the local formulary
  // (../formulary.ts) until it is.
  enalaprilat: [], bexagliflozin: [], 'ethacrynic acid': [], 'potassium citrate': [],
  'potassium bicarbonate': [], 'potassium gluconate': [], 'potassium acetate': [], 'potassium phosphate': [],
  'calcium polystyrene sulfonate': [],
  ketoprofen: [], piroxicam: [], sulindac: [], diflunisal: [], flurbiprofen: [], oxaprozin: [], fenoprofen: [], 'mefenamic acid': [],
  meclofenamate: [], tolmetin: [], salsalate: [],
  disopyramide: [], amoxapine: [], clomipramine: [], desipramine: [], doxepin: [], imipramine: [], protriptyline: [], trimipramine: [],
  prochlorperazine: [], promethazine: [], brompheniramine: [], carbinoxamine: [], clemastine: [], cyproheptadine: [],
  dexbrompheniramine: [], dexchlorpheniramine: [], dimenhydrinate: [], doxylamine: [], meclizine: [], pyrilamine: [], triprolidine: [],
  flavoxate: [], benztropine: [], trihexyphenidyl: [], chlorpromazine: [], clozapine: [], loxapine: [], olanzapine: [],
  perphenazine: [], thioridazine: [], trifluoperazine: [], atropine: [], 'belladonna alkaloids': [], clidinium: [], dicyclomine: [],
  homatropine: [], hyoscyamine: [], methscopolamine: [], propantheline: [], scopolamine: [], orphenadrine: [],
  tinzaparin: [], argatroban: [], bivalirudin: [],
  minocycline: [], tetracycline: [], demeclocycline: [], eravacycline: [], tigecycline: [], norfloxacin: [], omadacycline: [], sarecycline: [], ofloxacin: [], delafloxacin: [], gemifloxacin: [],
  cephradine: [], cefalotin: [], cefoxitin: [], cefotetan: [], loracarbef: [], cefotaxime: [], ceftazidime: [], cefditoren: [],
  ceftibuten: [], ceftaroline: [], ceftobiprole: [],
  eletriptan: [], naratriptan: [], almotriptan: [], frovatriptan: [], ciclesonide: [], flunisolide: [], arformoterol: [],
  indacaterol: [], cortisone: [], betamethasone: [], triamcinolone: [], deflazacort: [],
  // [not yet read] hepatitis C direct-acting antivirals (AASLD/IDSA HCV guidance: the simplified regimens are
  // glecaprevir/pibrentasvir and sofosbuvir/velpatasvir; ledipasvir/sofosbuvir an alternative). Their combination
  // brands (Epclusa, Harvoni, Mavyret) are in BRAND_NAMES.
  sofosbuvir: ['Sovaldi'], velpatasvir: [], ledipasvir: [], glecaprevir: [], pibrentasvir: [],
  // [not yet read] the pregnancy medication review: isotretinoin (contraindicated, iPLEDGE) and folic acid
  // (periconceptional supplement, USPSTF 2023).
  isotretinoin: ['Absorica', 'Claravis', 'Amnesteem'], 'folic acid': ['Folvite'],
  // [not yet read] tamoxifen, a major risk factor for hydroxychloroquine retinopathy (AAO 2016), and vitamin A, which
  // isotretinoin's label says to avoid (additive toxicity); the tetracyclines it must not be combined with are above.
  tamoxifen: ['Soltamox'], 'vitamin a': [],
};
