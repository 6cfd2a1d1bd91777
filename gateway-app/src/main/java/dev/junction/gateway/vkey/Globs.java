package dev.junction.gateway.vkey;

/**
 * Model patterns: {@code *} stands for any run of characters, everything else for itself.
 */
final class Globs {

	private Globs() {
	}

	static boolean matches(String pattern, String value) {
		return matches(pattern, 0, value, 0);
	}

	private static boolean matches(String pattern, int p, String value, int v) {
		while (p < pattern.length()) {
			char c = pattern.charAt(p);
			if (c == '*') {
				for (int rest = value.length(); rest >= v; rest--) {
					if (matches(pattern, p + 1, value, rest)) {
						return true;
					}
				}
				return false;
			}
			if (v >= value.length() || value.charAt(v) != c) {
				return false;
			}
			p++;
			v++;
		}
		return v == value.length();
	}

}
