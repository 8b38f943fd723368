// Fixture: base.
#pragma once
