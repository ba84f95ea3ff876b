// The GeoError a call throws, for tests that check what a refusal says.
import { GeoError } from '../../../src/geo/errors.js';

/** The GeoError fn throws; anything else thrown, or nothing, fails the test. */
export function geoError(fn: () => unknown): GeoError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GeoError) return err;
    throw err;
  }
  throw new Error('expected a GeoError');
}
