package dev.junction.messaging.instance;

/** The messaging network an instance is connected to. */
public enum Channel {

	WHATSAPP, TELEGRAM, SLACK, DISCORD, SMS, EMAIL, WEBCHAT, OTHER

}
