/** Friendly names for the API's types. The types themselves are generated
 * from the server's OpenAPI document into schema.d.ts (`npm run api:gen`);
 * money travels as decimal strings of rubles. */
import type { components } from "./schema";

export type Schemas = components["schemas"];

export type Car = Schemas["Car"];
/** What a card shows, and all a public list carries of a car (docs/catalogue.md,
 * "Lists carry cards"); the car page reads the whole `Car`. */
export type CarBrief = Schemas["CarBrief"];
export type CarStatus = Schemas["CarStatus"];
export type BodyTypeCode = Schemas["BodyType"];
export type Transmission = Schemas["Transmission"];
export type Drivetrain = Schemas["Drivetrain"];
export type FuelType = Schemas["FuelType"];
export type TrimLevel = Schemas["TrimLevel"];
export type CarImages = Schemas["CarImages"];
export type CarsBySlugs = Schemas["CarsBySlugs"];
/** The car lists' `sort` parameter (a plain string in the document). */
export type CarSort = "newest" | "price_asc" | "price_desc";

export type BrandBrief = Schemas["BrandBrief"];
export type Brand = Schemas["Brand"];
export type BodyTypeInfo = Schemas["BodyTypeInfo"];
export type Settings = Schemas["PublicSettings"];
export type Promotion = Schemas["Promotion"];
export type Review = Schemas["Review"];
export type PartnerBank = Schemas["PartnerBank"];
export type LegalDocument = Schemas["LegalDocument"];

/** What POST /api/leads takes; the lead, consent and phone rules are in
 * docs/leads.md. */
export type LeadPayload = Schemas["LeadInput"];
export type LeadType = Schemas["LeadType"];
export type Lead = Schemas["Lead"];
export type LeadCall = Schemas["LeadCall"];

/** Saved searches with alerts (docs/saved-searches.md): the followed filter,
 * the request, its answer, and the answers of the mails' links. */
export type SearchFilter = Schemas["SearchFilter"];
export type SubscribeInput = Schemas["SubscribeInput"];
export type SubscribeAnswer = Schemas["SubscribeAnswer"];
export type SearchConfirmed = Schemas["Confirmed"];
export type SearchUnsubscribed = Schemas["Unsubscribed"];

export type ApiErrorBody = Schemas["ApiErrorBody"];
export type Me = Schemas["Me"];
/** A staff member's role and what it may do (docs/admin.md, "Roles"). */
export type Role = Schemas["Role"];
export type Capability = Schemas["Capability"];
export type LoginInput = Schemas["LoginInput"];

/** The team (docs/admin.md, "The team"): staff accounts as the owner manages
 * them, the answer that may carry a new invitation link, the writes, one's
 * own password and the invitation page's account and password. */
export type StaffUser = Schemas["StaffUser"];
export type StaffAnswer = Schemas["StaffAnswer"];
export type NewStaff = Schemas["NewStaff"];
export type StaffChange = Schemas["StaffChange"];
export type ResetInput = Schemas["ResetInput"];
export type OwnPassword = Schemas["OwnPassword"];
export type Invitation = Schemas["Invitation"];
export type InvitationPassword = Schemas["InvitationPassword"];
export type Uploaded = Schemas["Uploaded"];

/** A person's own working hours (or the salon's settings `workSchedule`):
 * seven days, Monday first, null a day off. */
export type WorkSchedule = Schemas["WorkSchedule"];
/** How a new lead finds its assignee (settings `leadAssignment`; docs/leads.md,
 * "Who answers a lead"). */
export type AssignmentRule = Schemas["AssignmentRule"];
/** A staff comment on a lead and what adding one sends. */
export type LeadComment = Schemas["LeadComment"];
export type NewComment = Schemas["NewComment"];
