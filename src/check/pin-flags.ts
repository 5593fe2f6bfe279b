// What in a pin's text reads as an instruction aimed at agents rather than at the person
// reviewing it: characters nobody sees in a diff (zero-width, bidi controls, Unicode tag
// characters), HTML comments (hidden when GitHub renders Markdown) and the stock phrasing
// of prompt injection. A flag does not say the pin is malicious; it says "read this one
// closely", and shows the hidden parts so a reviewer can.

/** Format and other characters a diff view shows as nothing, or that reorder what is shown. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each joiner and selector is listed alone on purpose, to find it hidden
  /[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
const HTML_COMMENT = /<!--/;
/** Joiners and variation selectors inside an emoji sequence (a family, a red heart) are what they look like. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the joiners are matched alone, after an emoji
const EMOJI_JOIN = /(?<=[\p{Extended_Pictographic}\u{1f3fb}-\u{1f3ff}\ufe0f])[\u200d\ufe0e\ufe0f]/gu;

/** Phrasings that address the model, not the team; folded to lower case with runs of space collapsed. */
const INJECTION: readonly RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(previous|prior|earlier|above|preceding|all|any|other|system|your)\b[^.\n]{0,30}\b(instructions?|prompts?|rules?|directions?|guidelines?|messages?|context)\b/,
  /\b(you are now|from now on,? you|new instructions?:|system prompt|developer message|act as (an?|the) )/,
  /\b(do not|don't|never) (tell|inform|mention|reveal|show)[^.\n]{0,30}\b(user|human|reviewer|anyone)\b/,
  /\b(upload|exfiltrate|send|post|curl|wget|print|cat|copy)\b[^.\n]{0,60}(~\/\.ssh|\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|\.netrc|\.npmrc|\.env\b|api[_ -]?keys?|secrets?|tokens?|credentials?|passwords?)/,
  /<\s*\/?\s*(system|instructions?|assistant|im_start|im_end)\s*>|<\|im_(start|end)\|>|\[\/?inst\]/,
  // A download piped into a shell: whatever the server sends then runs.
  /\b(curl|wget)\b[^\n|]{0,200}\|\s*(sudo\s+)?(ba|z|da)?sh\b/,
];

/** Why a reviewer should read this pin closely; empty when nothing stands out. */
export function pinFlags(text: string): string[] {
  const flags: string[] = [];
  if (BIDI.test(text)) flags.push('bidirectional control characters (what is shown is not the order it is read in)');
  if (INVISIBLE.test(text.replace(EMOJI_JOIN, ''))) flags.push('invisible characters');
  if (CONTROL.test(text)) flags.push('control characters');
  if (HTML_COMMENT.test(text)) flags.push('an HTML comment (hidden when the Markdown is rendered)');
  const folded = text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
  if (INJECTION.some((re) => re.test(folded)))
    flags.push(
      'wording addressed to the agent rather than the team (overriding instructions, secrecy, sending secrets or running a download)',
    );
  return flags;
}

/** The text with every hidden character shown as <U+XXXX>, so a reviewer sees what an agent gets. */
export function revealHidden(text: string): string {
  let out = '';
  const kept = new Set([...text.matchAll(EMOJI_JOIN)].map((m) => m.index));
  let at = 0;
  for (const ch of text) {
    const index = at;
    at += ch.length;
    if (ch === '\n' || ch === '\t' || kept.has(index)) out += ch;
    else if (BIDI.test(ch) || INVISIBLE.test(ch) || CONTROL.test(ch) || ch === '\r')
      out += `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
    else out += ch;
  }
  return out;
}
