// Writes verification_key_infinity.json: snarkjs's verification_key.json with
// vk_alpha_1 and vk_delta_2 replaced by the points at infinity of G1 and G2,
// in ffjavascript's own toObject form, vk_alphabeta_12 recomputed with
// ffjavascript's pairing, and written with bfj exactly as the snarkjs CLI
// writes its JSON (space: 1).  Run from this directory by make.sh.
import { buildBls12381, utils } from "ffjavascript";
import bfj from "bfj";
import fs from "fs";

const curve = await buildBls12381(true);
const vk = utils.unstringifyBigInts(JSON.parse(fs.readFileSync("verification_key.json", "utf8")));
vk.vk_alpha_1 = curve.G1.toObject(curve.G1.zero);
vk.vk_delta_2 = curve.G2.toObject(curve.G2.zero);
vk.vk_alphabeta_12 = curve.Gt.toObject(
    curve.pairing(curve.G1.fromObject(vk.vk_alpha_1), curve.G2.fromObject(vk.vk_beta_2)));
await bfj.write("verification_key_infinity.json", utils.stringifyBigInts(vk), { space: 1 });
await curve.terminate();
