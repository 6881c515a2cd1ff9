// A visitor with a withdrawal link, as a mail would bring it: their lead
// sent through the API and a token for their address written beside it.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

/** A lead from a visitor and a mail's withdrawal link for their address. */
export async function visitorWithLink(s, name, email) {
  const r = await fetch(`${s.base}/api/leads`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      type: "contact_form",
      name,
      phone: "+7 (921) 555-77-88",
      email,
      consent: true,
    }),
  });
  assert.equal(r.status, 201, await r.text());
  const token = createHash("sha256").update(`${name}-${Date.now()}`).digest("base64url");
  s.write(
    "INSERT INTO forget_tokens (token_hash, email, created_at, email_key) VALUES (?, ?, ?, ?)",
    [
      createHash("sha256").update(token).digest("hex"),
      email,
      new Date().toISOString(),
      email.toLowerCase(),
    ],
  );
  return token;
}
