package dev.junction.messaging.apikey;

/** What an API key may do; each scope includes the ones before it. */
public enum Scope {

	/** Read every resource the key can see. */
	READ,

	/** Create, change and delete resources, send messages. */
	WRITE,

	/** Manage API keys. */
	ADMIN;

	/** Whether holding this scope grants {@code other}. */
	public boolean includes(Scope other) {
		return ordinal() >= other.ordinal();
	}

}
