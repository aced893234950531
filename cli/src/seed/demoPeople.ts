/**
 * What the demo's people are made of: common Filipino given names and surnames, real places
 * (street, barangay or district, city, province), the banks and e-wallets borrowers are paid to,
 * and the reasons people borrow. Combined by a seeded generator, so one seed gives one demo.
 */
export const GIVEN_NAMES = [
  'Maria',
  'Jose',
  'Juan',
  'Ana',
  'Mark',
  'John Paul',
  'Kristine',
  'Angelica',
  'Rodel',
  'Jerome',
  'Mary Joy',
  'Rowena',
  'Arnel',
  'Lorna',
  'Ramon',
  'Liza',
  'Jocelyn',
  'Reynaldo',
  'Marites',
  'Danilo',
  'Cristina',
  'Rogelio',
  'Maricel',
  'Edgardo',
  'Rhea',
  'Jerico',
  'Analyn',
  'Ronaldo',
  'Jennifer',
  'Michael',
  'Grace',
  'Noel',
  'Hazel',
  'Efren',
  'Imelda',
  'Rolando',
  'Gemma',
  'Aileen',
  'Bong',
  'Celia',
];
export const SURNAMES = [
  'Santos',
  'Reyes',
  'Cruz',
  'Bautista',
  'Ocampo',
  'Garcia',
  'Mendoza',
  'Torres',
  'Tomas',
  'Andrada',
  'Castillo',
  'Flores',
  'Villanueva',
  'Ramos',
  'Castro',
  'Rivera',
  'Aquino',
  'Navarro',
  'Salazar',
  'Mercado',
  'Dela Cruz',
  'De Leon',
  'Gonzales',
  'Lopez',
  'Pascual',
  'Dizon',
  'Manalo',
  'Soriano',
  'Valdez',
  'Domingo',
  'Aguilar',
  'Panganiban',
  'Magbanua',
  'Macaraeg',
  'Tolentino',
  'Lacson',
];
export const PLACES: readonly { district: string; city: string; province: string }[] = [
  { district: 'Brgy. San Antonio', city: 'Pasig City', province: 'Metro Manila' },
  { district: 'Brgy. Bagumbayan', city: 'Quezon City', province: 'Metro Manila' },
  { district: 'Ermita', city: 'Manila', province: 'Metro Manila' },
  { district: 'Brgy. Poblacion', city: 'Makati City', province: 'Metro Manila' },
  { district: 'Brgy. Tambo', city: 'Parañaque City', province: 'Metro Manila' },
  { district: 'Brgy. Lahug', city: 'Cebu City', province: 'Cebu' },
  { district: 'Brgy. Mabolo', city: 'Cebu City', province: 'Cebu' },
  { district: 'Brgy. Buhangin', city: 'Davao City', province: 'Davao del Sur' },
  { district: 'Brgy. Jaro', city: 'Iloilo City', province: 'Iloilo' },
  { district: 'Brgy. Mandurriao', city: 'Iloilo City', province: 'Iloilo' },
  { district: 'Brgy. Pinmaludpod', city: 'Urdaneta City', province: 'Pangasinan' },
  { district: 'Brgy. San Jose', city: 'San Fernando', province: 'Pampanga' },
  { district: 'Brgy. Calero', city: 'Calapan City', province: 'Oriental Mindoro' },
  { district: 'Brgy. Tetuan', city: 'Zamboanga City', province: 'Zamboanga del Sur' },
  { district: 'Brgy. Carmen', city: 'Cagayan de Oro', province: 'Misamis Oriental' },
  { district: 'Brgy. Session Road', city: 'Baguio City', province: 'Benguet' },
  { district: 'Brgy. Poblacion', city: 'Vigan City', province: 'Ilocos Sur' },
  { district: 'Brgy. Banilad', city: 'Dumaguete City', province: 'Negros Oriental' },
  { district: 'Brgy. Bayanan', city: 'Batangas City', province: 'Batangas' },
  { district: 'Brgy. Tagapo', city: 'Santa Rosa', province: 'Laguna' },
];
export const STREETS = ['Rizal Street', 'Mabini Street', 'Bonifacio Avenue', 'Quezon Boulevard', 'Luna Street', 'Del Pilar Street', 'Burgos Street', 'Aguinaldo Highway', 'Sampaguita Street', 'Narra Street'];
/** Where the money goes out: the spec's partner banks and the other common payees. */
export const BANKS = ['BPI', 'BDO', 'Metrobank', 'UnionBank', 'Landbank', 'PNB', 'Security Bank', 'RCBC', 'GCash', 'Maya', 'CIMB Bank'];
export const PURPOSES = [
  'Sari-sari store stock',
  'Tricycle for a transport business',
  'Tuition for my daughter',
  'Home repair after the typhoon',
  'Hospital bills',
  'Rice farming inputs',
  'Carinderia equipment',
  'Motorcycle for deliveries',
  'Online selling inventory',
  'Balikbayan box business',
];
export const COUNTRIES_OF_WORK = ['Philippines', 'Philippines', 'Philippines', 'Saudi Arabia', 'United Arab Emirates', 'Hong Kong', 'Singapore', 'Qatar'];

/** mulberry32: a small, fast, seeded generator (one seed, one demo). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class Picker {
  constructor(readonly random: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  one<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
  chance(probability: number): boolean {
    return this.random() < probability;
  }
  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++) text += String(this.int(0, 9));
    return text;
  }
}
