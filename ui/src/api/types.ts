/** The JSON the public API answers with (camelCase; money as decimal strings). */
export type CarStatus = "new" | "used" | "lease";
export type BodyTypeCode = "sedan" | "hatchback" | "crossover" | "wagon" | "coupe" | "pickup";

export interface Car {
  id: string;
  brandId: string;
  brandName: string;
  brandSlug: string;
  name: string;
  slug: string;
  model: string;
  year: number;
  price: string;
  monthlyPayment: string | null;
  dailyPrice: string | null;
  status: CarStatus;
  bodyType: BodyTypeCode;
  transmission: string;
  drivetrain: string;
  fuelType: string;
  engine: string;
  mileage: number;
  mainImage: string;
  images: string[];
  hasImages: boolean;
  inStock: boolean;
  featured: boolean;
}

export interface BrandBrief {
  id: string;
  name: string;
  slug: string;
  logo: string;
  carCount: number;
}

export interface Brand extends BrandBrief {
  description: string;
}

export interface BodyTypeInfo {
  id: string;
  bodyType: BodyTypeCode;
  labelPlural: string;
  labelSingle: string;
  imageUrl: string;
  imageUrlMobile: string;
  carCount: number;
}

export interface Settings {
  salonName: string;
  phone: string;
  phoneSecondary: string;
  address: string;
  fullAddress: string;
  email: string;
  workingHours: string;
  heroTitle: string;
  heroSubtitle: string;
  favicon: string;
  yandexMetrikaId: string;
  googleAnalyticsId: string;
  legalEntity: string;
  consentVersion: number;
  homeBanner: string;
  homeBannerMobile: string;
  newCarsBanner: string;
  newCarsBannerMobile: string;
  usedCarsBanner: string;
  usedCarsBannerMobile: string;
  tradeInBanner: string;
  tradeInBannerMobile: string;
  autoCreditBanner: string;
  autoCreditBannerMobile: string;
  autoSelectionBanner: string;
  autoSelectionBannerMobile: string;
}

export interface Promotion {
  id: string;
  title: string;
  description: string;
  image: string;
  discount: string;
  validUntil: string;
}

export interface Review {
  id: string;
  customerName: string;
  carModel: string | null;
  rating: number;
  text: string;
  photo: string | null;
  createdAt: string;
}

export interface PartnerBank {
  id: string;
  name: string;
  logo: string;
  requirements: string;
  advantages: string;
}

export interface LegalDocument {
  title: string;
  text: string;
  version: number;
}

export type LeadType =
  | "auto_credit"
  | "trade_in"
  | "auto_selection"
  | "lease_booking"
  | "contact_form";

/** What POST /api/leads takes (spec section 7, decisions.md). */
export interface LeadPayload {
  type: LeadType;
  name: string;
  phone: string;
  email?: string;
  message?: string;
  carBrand?: string;
  carModel?: string;
  carYear?: number;
  carMileage?: number;
  budget?: string;
  bodyType?: string;
  transmission?: string;
  fuelTypes?: string;
  sourceUrl: string;
  carId?: string;
  carInfo?: string;
  carPrice?: string;
  carStatus?: string;
  consent: boolean;
  advertisingConsent: boolean;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
  analyticsClientId?: string;
  website: string;
}
