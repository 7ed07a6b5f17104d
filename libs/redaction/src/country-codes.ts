/**
 * ITU-T E.164 country codes are prefix-free: the first digits alone say how long the code is.
 * `1` (North America) and `7` (Russia, Kazakhstan) are one digit; the two-digit codes are listed
 * here; every other code has three digits (`254` Kenya, `255` Tanzania, `256` Uganda).
 */
const TWO_DIGIT_CODES = new Set([
  '20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49',
  '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84',
  '86', '90', '91', '92', '93', '94', '95', '98',
]);

/**
 * How many of the leading digits of an international number (written after `+` or `00`) are its
 * country code.
 *
 * @example countryCodeLength('254712345432') === 3; countryCodeLength('27821234567') === 2
 */
export function countryCodeLength(digits: string): number {
  if (digits.startsWith('1') || digits.startsWith('7')) return 1;
  return TWO_DIGIT_CODES.has(digits.slice(0, 2)) ? 2 : 3;
}
