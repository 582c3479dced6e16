CREATE TABLE "transfers_home" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transaction_hash" text,
	"failure_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_link_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "linked_wallet" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "linked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "transfers_home" ADD CONSTRAINT "transfers_home_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers_home" ADD CONSTRAINT "transfers_home_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_link_nonces" ADD CONSTRAINT "wallet_link_nonces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfers_home_user_id_idx" ON "transfers_home" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "transfers_home_open_idx" ON "transfers_home" USING btree ("created_at") WHERE "transfers_home"."status" in ('pending', 'sent');--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_home_claim_open_unique" ON "transfers_home" USING btree ("claim_id") WHERE "transfers_home"."status" in ('pending', 'sent');--> statement-breakpoint
CREATE INDEX "wallet_link_nonces_user_id_idx" ON "wallet_link_nonces" USING btree ("user_id");