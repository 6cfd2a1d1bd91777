package dev.junction.mock.embeddings;

import java.util.SplittableRandom;

/**
 * Deterministic embeddings: the same input always gets the same vector, different inputs
 * get vectors that point in unrelated directions, and every vector has length 1, as
 * OpenAI's have.
 */
final class EmbeddingVectors {

	private static final long FNV_OFFSET = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	private EmbeddingVectors() {
	}

	/** The unit vector of {@code dimensions} components for an input's bytes. */
	static float[] of(byte[] input, int dimensions) {
		SplittableRandom random = new SplittableRandom(seed(input));
		double[] components = new double[dimensions];
		double squares = 0;
		for (int i = 0; i < dimensions; i++) {
			components[i] = random.nextGaussian();
			squares += components[i] * components[i];
		}
		double norm = Math.sqrt(squares);
		float[] vector = new float[dimensions];
		for (int i = 0; i < dimensions; i++) {
			vector[i] = (float) (components[i] / norm);
		}
		return vector;
	}

	/** FNV-1a over the bytes. */
	private static long seed(byte[] input) {
		long hash = FNV_OFFSET;
		for (byte b : input) {
			hash ^= (b & 0xff);
			hash *= FNV_PRIME;
		}
		return hash;
	}

}
