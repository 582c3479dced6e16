CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"collectible_id" uuid NOT NULL,
	"holder_id" uuid NOT NULL,
	"minted_to" text NOT NULL,
	"external_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"transaction_hash" text,
	"mined_block" bigint,
	"send_alone" boolean DEFAULT false NOT NULL,
	"failure_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collectibles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"creator_id" uuid,
	"name" text NOT NULL,
	"description" text,
	"mime_type" text,
	"artwork" text,
	"cover" jsonb,
	"external_id" text,
	"total_count" integer NOT NULL,
	"reserved_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transaction_hash" text,
	"mined_block" bigint,
	"failure_reason" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"api_key_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"response_location" text,
	"locked_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_collectible_id_collectibles_id_fk" FOREIGN KEY ("collectible_id") REFERENCES "public"."collectibles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collectibles" ADD CONSTRAINT "collectibles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collectibles" ADD CONSTRAINT "collectibles_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claims_created_at_id_idx" ON "claims" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "claims_collectible_id_idx" ON "claims" USING btree ("collectible_id");--> statement-breakpoint
CREATE INDEX "claims_holder_id_idx" ON "claims" USING btree ("holder_id");--> statement-breakpoint
CREATE INDEX "claims_pending_idx" ON "claims" USING btree ("created_at","id") WHERE "claims"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "claims_collectible_holder_unique" ON "claims" USING btree ("collectible_id","holder_id") WHERE "claims"."status" <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "claims_collectible_external_id_unique" ON "claims" USING btree ("collectible_id","external_id") WHERE "claims"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "collectibles_created_at_id_idx" ON "collectibles" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "collectibles_organization_id_idx" ON "collectibles" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "collectibles_pending_idx" ON "collectibles" USING btree ("created_at") WHERE "collectibles"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "collectibles_organization_external_id_unique" ON "collectibles" USING btree ("organization_id","external_id") WHERE "collectibles"."external_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_pk" ON "idempotency_keys" USING btree ("api_key_id","key");